// The catalog's scenarios at scale, as data (both languages, a manifest kubectl accepts, the Pods they
// name) and as behaviour: run whole on a cluster of the nodes they name, they end with every Pod Running
// and Ready, spread over every node, and more Events than Pods, as their descriptions say. Minutes each.

import { describe, expect, it } from 'vitest';
import { parseManifest } from '../api/manifest.ts';
import type { Event, Pod } from '../api/types/core.ts';
import { createCluster } from '../cluster.ts';
import { convergenceProblems, podsNotRunningAndReady, storedObjects } from '../testing/invariants.ts';
import { catalog, scenarioById } from './catalog.ts';
import { ScenarioRunner } from './runner.ts';
import { scaleScenarios } from './scale.ts';

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

  it.each(scaleScenarios.map((s) => s.id))('%s: every Pod Running and Ready, on every node, with more Events than Pods', (id) => {
    const scenario = scenarioById(id)!;
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
});
