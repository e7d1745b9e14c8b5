import { describe, expect, test } from 'vitest';
import { StatusError } from '../../api/errors.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { applyConfiguration } from './apply.ts';

const config = (replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web', ...extra } },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
});

function apply(live: KubeObject | null, cfg: Record<string, unknown>, manager = 'kubectl', force = false): KubeObject {
  return applyConfiguration({ kind: 'Deployment', live, config: cfg, manager, apiVersion: 'apps/v1', time: '2024-01-01T00:00:00Z', force });
}

function withUpdater(obj: KubeObject, manager: string, fieldsV1: Record<string, unknown>): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, managedFields: [...(obj.metadata.managedFields ?? []), { manager, operation: 'Update', apiVersion: 'apps/v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1 }] } };
}

function conflictOf(f: () => unknown): StatusError {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('no conflict');
}

describe('server-side apply', () => {
  test('the applier owns exactly the fields it set; a port without protocol is keyed as TCP', () => {
    const obj = apply(null, config(2));
    const entry = obj.metadata.managedFields![0]!;
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' });
    const containers = ((entry.fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>)['f:spec']!['f:template']!['f:spec']!['f:containers']) as Record<string, Record<string, unknown>>;
    expect(Object.keys(containers)).toEqual(['k:{"name":"web"}']);
    expect(Object.keys(containers['k:{"name":"web"}']!['f:ports'] as object)).toEqual(['k:{"containerPort":80,"protocol":"TCP"}']);
  });

  test('changing a field another manager owns is a 409 naming each field; the same value is shared, not a conflict', () => {
    const live = withUpdater(apply(null, config(2)), 'kubectl-edit', { 'f:metadata': { 'f:labels': { 'f:tier': {} } }, 'f:spec': { 'f:replicas': {} } });
    (live as unknown as { spec: { replicas: number } }).spec.replicas = 5;
    (live.metadata.labels as Record<string, string>).tier = 'a';
    expect(() => apply(live, config(5))).not.toThrow();
    const err = conflictOf(() => apply(live, config(3, { tier: 'b' })));
    expect(err.code).toBe(409);
    expect(err.status.message).toBe('Apply failed with 2 conflicts: conflicts with "kubectl-edit" using apps/v1:\n- .metadata.labels.tier\n- .spec.replicas');
    expect(err.status.details?.causes).toEqual([
      { type: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.metadata.labels.tier' },
      { type: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' },
    ]);
    const forced = apply(live, config(3, { tier: 'b' }), 'kubectl', true);
    expect((forced as unknown as { spec: { replicas: number } }).spec.replicas).toBe(3);
    expect(forced.metadata.managedFields!.map((e) => e.manager)).toEqual(['kubectl']);
  });

  test('a field the applier set before and leaves out now is removed, unless someone else owns it', () => {
    const first = apply(null, config(2, { tier: 'a', team: 'x' }));
    const shared = withUpdater(first, 'other', { 'f:metadata': { 'f:labels': { 'f:team': {} } } });
    const second = apply(shared, config(2));
    expect(second.metadata.labels).toEqual({ app: 'web', team: 'x' });
  });
});
