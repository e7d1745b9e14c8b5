// The catalog's scenarios at scale, as data (both languages, a manifest kubectl accepts, the Pods they
// name) and as behaviour: run whole on a cluster of the nodes they name, they end with every Pod Running
// and Ready, spread over every node, and more Events than Pods, as their descriptions say. Minutes each, so
// the large ones (30,000 and 150,000 Pods) run here at a few nodes: the same builder, steps and texts.

import { describe, expect, it } from 'vitest';
import { parseManifest } from '../api/manifest.ts';
import type { Event, Pod } from '../api/types/core.ts';
import { createCluster } from '../cluster.ts';
import { convergenceProblems, podsNotRunningAndReady, storedObjects } from '../testing/invariants.ts';
import { catalog, scenarioById } from './catalog.ts';
import { ScenarioRunner } from './runner.ts';
import { bigScaleScenario, bigScaleScenarios } from './scale-big.ts';
import { measureScaleLesson } from './scale-lesson.ts';
import { scaleScenarios } from './scale.ts';
import type { Scenario } from './scenario.ts';

describe('the scenarios at scale', () => {
  it('are offered after the teaching flows, in English and Chinese, with a manifest for the Pods they name', () => {
    expect(catalog.slice(-scaleScenarios.length)).toEqual(scaleScenarios);
    for (const s of scaleScenarios) {
      expect(scenarioById(s.id)).toBe(s);
      for (const text of [s.title, s.description]) {
        expect(text.en.trim()).not.toBe('');
        expect(text.zh).toMatch(/[\u4e00-\u9fff]/);
        expect(text.en + text.zh).not.toContain('\n');
      }
      const replicas = s.manifests.flatMap((m) => {
        const parsed = parseManifest(m.yaml, m.file);
        expect(parsed.errors).toEqual([]);
        expect(parsed.objects.flatMap((o) => o.unknownFields)).toEqual([]);
        return parsed.objects.map((o) => (o.object as { spec?: { replicas?: number } }).spec?.replicas ?? 0);
      });
      expect(replicas.reduce((a, b) => a + b, 0)).toBe(s.pods);
    }
  });

  it('include Kubernetes\' tested sizes, titled and described from their size', () => {
    expect(bigScaleScenarios.map((s) => [s.id, s.title.en, s.title.zh, s.nodes, s.pods])).toEqual([
      ['scale-30000-pods', '1,000 nodes, 30,000 Pods', '1,000 个节点、30,000 个 Pod', 1000, 30_000],
      ['scale-150000-pods', '5,000 nodes, 150,000 Pods', '5,000 个节点、150,000 个 Pod', 5000, 150_000],
    ]);
    for (const s of bigScaleScenarios) {
      expect(s.pods! / s.nodes!).toBeLessThanOrEqual(110);
      expect(s.description.en).toContain(`all ${s.nodes!.toLocaleString('en-US')} nodes`);
      expect(s.steps).toEqual([{ do: 'create', file: `web-${s.pods}.yaml` }, { do: 'runUntilIdle' }]);
    }
  });

  const whole = [...scaleScenarios.filter((s) => s.pods! <= 1000), bigScaleScenario({ nodes: 6, pods: 60 }, 'scale-60-pods')];
  it.each(whole.map((s) => [s.id, s] as const))('%s: every Pod Running and Ready, on every node, with more Events than Pods', (_id, scenario: Scenario) => {
    const id = scenario.id;
    const cluster = createCluster({ seed: `scale-${id}`, nodes: scenario.nodes! });
    cluster.boot();
    new ScenarioRunner(cluster, scenario).runAll();
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(convergenceProblems(cluster)).toEqual([]);
    const pods = storedObjects<Pod>(cluster, 'pods');
    expect(pods).toHaveLength(scenario.pods!);
    const perNode = new Map<string, number>();
    for (const pod of pods) perNode.set(pod.spec!.nodeName!, (perNode.get(pod.spec!.nodeName!) ?? 0) + 1);
    expect(perNode.size).toBe(scenario.nodes);
    expect(Math.max(...perNode.values())).toBeLessThanOrEqual(110);
    expect(storedObjects<Event>(cluster, 'events').length).toBeGreaterThan(scenario.pods!);
  }, 1_800_000);

  it('measures what it teaches at the end: a list from etcd against one from the watch cache, the window, Events, scheduling', () => {
    const scenario = bigScaleScenario({ nodes: 4, pods: 40 });
    const cluster = createCluster({ seed: 'scale-lesson', nodes: 4 });
    cluster.boot();
    new ScenarioRunner(cluster, scenario).runAll();
    const lesson = measureScaleLesson(cluster);
    const [etcd, cache] = lesson.lists;
    expect(etcd).toMatchObject({ source: 'etcd', query: '', status: 200, items: 40 });
    expect(cache).toMatchObject({ source: 'watch cache', query: 'resourceVersion=0', status: 200, items: 40, etcdBytes: 0 });
    // etcd returned at least every Pod's stored bytes; the answers carry the same Pods.
    const stored = cluster.etcd.kv.range({ key: '/registry/pods/', rangeEnd: '/registry/pods0' }).kvs.reduce((n, kv) => n + kv.key.length + kv.value.length, 0);
    expect(etcd!.etcdBytes).toBe(stored);
    expect(Math.abs(etcd!.responseBytes - cache!.responseBytes)).toBeLessThan(etcd!.responseBytes / 10);
    expect(etcd!.ms).toBeGreaterThan(cache!.ms);
    expect(lesson.pods).toBe(40);
    expect(lesson.events).toBeGreaterThan(40);
    expect(lesson.podWatchCache).toMatchObject({ objects: 40 });
    expect(lesson.podWatchCache!.capacity).toBeGreaterThanOrEqual(100);
    expect(lesson.scheduler.attempts).toBeGreaterThanOrEqual(40);
    expect(lesson.scheduler.perSecond).toBeGreaterThan(0);
  }, 600_000);
});
