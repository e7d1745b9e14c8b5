// Fixtures the storage tests share: a pod resource on a StorageBench, selectors, predicates, options and
// a watch sink that records what it was sent. Test-only: nothing in the simulation imports it.
// Models k8s.io/apiserver/pkg/storage/testing/utils.go.

import { everythingFields, parseFieldSelector, type FieldSelector } from '../../api/fields.ts';
import { everything, parseLabelSelector, type Selector } from '../../api/labels.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { ListOptions, SelectionPredicate, StorageWatchEvent, StorageWatchSink, UpdateFunc, WatchOptions } from './interface.ts';
import type { Cacher, CacherFeatureGates } from './cacher.ts';
import { StorageBench, type BenchResource } from './testing.ts';

export const pods = { group: '', resource: 'pods' };

export const podResource: BenchResource = {
  groupResource: pods,
  resourcePrefix: '/registry/pods',
  newFunc: () => ({ kind: 'Pod', apiVersion: 'v1', metadata: {} }),
  keyFunc: (obj) => `/registry/pods/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`,
};

export function pod(name: string, labels: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return { kind: 'Pod', apiVersion: 'v1', metadata: { name, namespace, uid: `uid-${name}`, labels }, spec: { containers: [] } } as KubeObject;
}

export function podKey(name: string, namespace = 'default'): string {
  return `/registry/pods/${namespace}/${name}`;
}

export function labelSelector(s: string): Selector {
  const parsed = parseLabelSelector(s);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

export function fieldSelector(s: string): FieldSelector {
  const parsed = parseFieldSelector(s);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

export function predicate(label: Selector = everything, limit = 0, continueToken = '', field: FieldSelector = everythingFields): SelectionPredicate {
  return {
    label, field, limit, continueToken,
    getAttrs: (o) => ({
      labels: o.metadata.labels ?? {},
      fields: { 'metadata.name': o.metadata.name ?? '', 'metadata.namespace': o.metadata.namespace ?? '' },
    }),
  };
}

export function listOptions(overrides: Partial<ListOptions> = {}): ListOptions {
  return { resourceVersion: '', resourceVersionMatch: '', predicate: predicate(), recursive: true, ...overrides };
}

export function watchOptions(overrides: Partial<WatchOptions> = {}): WatchOptions {
  return { resourceVersion: '0', predicate: predicate(), recursive: true, allowWatchBookmarks: false, ...overrides };
}

export function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** An UpdateFunc that sets labels. */
export function setLabels(labels: Record<string, string>): UpdateFunc {
  return function* (cur) {
    return { ...cur, metadata: { ...cur.metadata, labels } };
  };
}

/** A sink that records what a watch delivered, with the virtual time of each event. */
export class WatchRecorder implements StorageWatchSink {
  readonly events: Array<StorageWatchEvent & { at: number }> = [];
  ended = false;

  constructor(private readonly bench: StorageBench) {}

  event(event: StorageWatchEvent): void {
    if (this.ended) throw new Error('event after end');
    this.events.push({ ...event, at: this.bench.sim.now });
  }

  end(): void {
    if (this.ended) throw new Error('end twice');
    this.ended = true;
  }

  /** `TYPE name@rv` per event, e.g. `ADDED a@2`, `BOOKMARK @7`. */
  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}@${e.object.metadata.resourceVersion ?? ''}`);
  }
}

/** A cacher of pods on a fresh bench, once it has listed and is watching. */
export function settledCacher(gates: CacherFeatureGates = {}): { bench: StorageBench; cacher: Cacher } {
  const bench = new StorageBench();
  const cacher = bench.cacher(podResource, gates);
  bench.settle();
  return { bench, cacher };
}
