// The messages a seeded catalog scenario really delivers, for caption and label tests: each as the
// page receives it (a trace record), typed by the model's message map, with the context the page gives
// it (the request a response answers, the message that caused it).

import type { TraceRecord } from '../../src/protocol/index.ts';
import { typedRecord, type TypedMessageView } from '../../src/protocol/messages.ts';
import { createCluster } from '../../src/sim/cluster.ts';
import type { ClusterMessageKind } from '../../src/sim/messages/index.ts';
import { scenarioById } from '../../src/sim/scenarios/catalog.ts';
import { ScenarioRunner } from '../../src/sim/scenarios/runner.ts';

export interface Delivered<K extends ClusterMessageKind = ClusterMessageKind> {
  readonly record: TypedMessageView<K> & TraceRecord;
  readonly request: TraceRecord | undefined;
  readonly cause: TraceRecord | undefined;
}

export interface ModelMessages {
  /** Every delivered message of kind `kind`, in delivery order. */
  of<K extends ClusterMessageKind>(kind: K): ReadonlyArray<Delivered<K>>;
}

/** Boots a cluster seeded `seed`, runs catalog scenario `id` to its end and keeps every delivery. */
export function modelMessages(id: string, seed = `model-messages-${id}`): ModelMessages {
  const scenario = scenarioById(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const cluster = createCluster({ seed });
  const held = new Map<number, TraceRecord>();
  const byKind = new Map<string, Delivered[]>();
  cluster.engine.onDelivery((m) => {
    const record: TraceRecord = { ...m, step: cluster.engine.step };
    held.set(m.id, record);
    const delivered = {
      record: typedRecord(record) as TypedMessageView & TraceRecord,
      request: m.replyTo !== null ? held.get(m.replyTo) : undefined,
      cause: m.cause !== null ? held.get(m.cause) : undefined,
    };
    const list = byKind.get(m.kind) ?? [];
    list.push(delivered);
    byKind.set(m.kind, list);
  });
  cluster.boot();
  new ScenarioRunner(cluster, scenario).runAll();
  // Kept by kind: every message under `kind` is of that kind, so it carries that kind's payload.
  return { of: <K extends ClusterMessageKind>(kind: K) => (byKind.get(kind) ?? []) as unknown as ReadonlyArray<Delivered<K>> };
}
