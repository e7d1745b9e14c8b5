import { describe, expect, it } from 'vitest';
import { changedFields, fromFieldsV1, subtract, toFieldsV1, union } from './field-set.ts';

const meta = { kind: 'struct', name: 'ObjectMeta' } as const;

describe('field sets', () => {
  it('records new map entries under a member map, and set-list items by value', () => {
    const node = changedFields({ labels: { app: 'nginx' }, finalizers: ['orphan'] }, {}, meta, '')!;
    expect(toFieldsV1(node)).toEqual({ 'f:finalizers': { '.': {}, 'v:"orphan"': {} }, 'f:labels': { '.': {}, 'f:app': {} } });
  });

  it('records only what changed when the map existed before', () => {
    const node = changedFields({ labels: { app: 'nginx', tier: 'web' } }, { labels: { app: 'nginx' } }, meta, '')!;
    expect(toFieldsV1(node)).toEqual({ 'f:labels': { 'f:tier': {} } });
    expect(changedFields({ labels: { app: 'nginx' } }, { labels: { app: 'nginx' } }, meta, '')).toBeNull();
  });

  it('keys owner references by uid', () => {
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-1', controller: true };
    const node = changedFields({ ownerReferences: [ref] }, {}, meta, '')!;
    expect(Object.keys(toFieldsV1(node)['f:ownerReferences'] as object)).toEqual(['.', 'k:{"uid":"u-1"}']);
  });

  it('round-trips FieldsV1 and subtracts and unions paths', () => {
    const json = { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } };
    const set = fromFieldsV1(json);
    set.member = false;
    expect(toFieldsV1(set)).toEqual(json);
    expect(subtract(set, fromFieldsV1({ 'f:spec': { 'f:replicas': {} } }))).toBe(true);
    expect(toFieldsV1(set)).toEqual({ 'f:spec': { 'f:selector': {} } });
    union(set, fromFieldsV1({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }));
    set.member = false;
    expect(toFieldsV1(set)).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:selector': {} } });
    expect(subtract(set, fromFieldsV1({ 'f:metadata': {}, 'f:spec': {} }))).toBe(false);
  });
});
