import { describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/index.ts';
import { asksBeforeStart, cpuFit, cpuRuns, keptByModel, memoryFit, memoryRuns, ownProcessRun, peakRatio, scaleEstimate, stepsFactor, workerFactor, workerHeapBytes } from './estimate.ts';
import { scenarioTextsIn } from './texts.ts';

await loadLanguage('zh');

const KiB = 1024;
const MiB = 1024 ** 2;

describe('the estimate before a scenario at scale starts', () => {
  it('comes close to the measured runs it is fitted to', () => {
    // CPU: three runs, three parts (warm-up, per Pod, per Pod per node): each run within 1 %.
    for (const run of cpuRuns) {
      expect(Math.abs(scaleEstimate(run.pods, run.nodes).podsPerCpuSecond / run.podsPerCpuSecond - 1)).toBeLessThan(0.01);
    }
    // Memory kept within 10 % of each run (a plane through four runs whose per-Pod part falls with size
    // cannot pass through all of them); the largest, past which the estimate extrapolates, within 3 %.
    for (const run of memoryRuns) expect(Math.abs(keptByModel(run.pods, run.nodes) / run.keptBytes - 1)).toBeLessThan(0.1);
    const largest = memoryRuns.at(-1)!;
    expect(largest.pods).toBe(30_000);
    expect(Math.abs(keptByModel(largest.pods, largest.nodes) / largest.keptBytes - 1)).toBeLessThan(0.03);
    // Each run's peak was 2.3–3.7 times what it kept; the ratio used lies between them.
    const ratios = memoryRuns.map((r) => r.peakBytes / r.keptBytes);
    expect(peakRatio).toBeGreaterThanOrEqual(Math.min(...ratios));
    expect(peakRatio).toBeLessThanOrEqual(Math.max(...ratios));
  });

  it('has parts a reader can check: seconds of warm-up, milliseconds per Pod, KiB per Pod and per node', () => {
    expect(cpuFit.warmUp).toBeCloseTo(3.9, 1);
    expect(cpuFit.perPod * 1000).toBeCloseTo(4.29, 2);
    expect(cpuFit.perPodNode * 1e6).toBeCloseTo(3.15, 2);
    expect(memoryFit.fixed / MiB).toBeCloseTo(78.4, 1);
    expect(memoryFit.perPod / KiB).toBeCloseTo(27.4, 1);
    expect(memoryFit.perNode / KiB).toBeCloseTo(76.7, 1);
    expect(peakRatio).toBeCloseTo(2.95, 2);
  });

  it('counts what the page\'s worker keeps beyond the cluster, by etcd members, as measured', () => {
    // The host driven to idle (bench/host-heap.ts 30000 1000, session 21): 815.4 MiB with 1 member, 1,170.3 MiB
    // with 3; the factors are those over the fit, within 1 %.
    expect(Math.abs(scaleEstimate(30_000, 1000, 1).bytes / (815.4 * MiB) - 1)).toBeLessThan(0.01);
    expect(Math.abs(scaleEstimate(30_000, 1000, 3).bytes / (1_170.3 * MiB) - 1)).toBeLessThan(0.01);
    expect(workerFactor(5) - workerFactor(3)).toBeCloseTo(workerFactor(3) - workerFactor(1), 6);
    // 3 members deliver 1.81 times the steps of one.
    expect(scaleEstimate(10_000, 500, 3).seconds / scaleEstimate(10_000, 500, 1).seconds).toBeCloseTo(1.81, 2);
    expect(stepsFactor(1)).toBe(1);
  });

  it('puts 30,000 Pods on 1,000 nodes within the worker\'s heap, close to it with 3 etcd members, and 150,000 past it', () => {
    const three = scaleEstimate(30_000, 1000, 3);
    expect(three.bytes).toBeGreaterThan(0.6 * workerHeapBytes);
    expect(three).toMatchObject({ fits: true, nearLimit: true, etcdMembers: 3 });
    const one = scaleEstimate(30_000, 1000, 1);
    expect(one.bytes / 1024 ** 3).toBeCloseTo(0.80, 2);
    expect(one).toMatchObject({ fits: true, nearLimit: false });
    // 5 members (extrapolated) come closer still.
    expect(scaleEstimate(30_000, 1000, 5)).toMatchObject({ fits: true, nearLimit: true });
    expect(scaleEstimate(30_000, 1000, 5).bytes).toBeGreaterThan(0.8 * workerHeapBytes);
    const big = scaleEstimate(150_000, 5000, 1);
    expect(big.seconds / 60).toBeCloseTo(50.1, 1);
    expect(big).toMatchObject({ fits: false, nearLimit: false });
    expect(scaleEstimate(10_000, 500, 3)).toMatchObject({ fits: true, nearLimit: false });
  });

  it('in a process of its own, says a cluster fits up to the largest measured to run to the end there, and past it that none so large was', () => {
    // 150,000 Pods on 5,000 nodes with 1 member ran to the end there (session 25); in the tab it is past the worker's heap.
    const { pods, nodes, etcdMembers } = ownProcessRun;
    expect(scaleEstimate(pods, nodes, etcdMembers, true)).toMatchObject({ fits: true, nearLimit: false, ownProcess: true });
    expect(scaleEstimate(pods, nodes, etcdMembers, false)).toMatchObject({ fits: false, ownProcess: false });
    // With 3 members it keeps more than that run: not measured to run to the end.
    expect(scaleEstimate(pods, nodes, 3, true)).toMatchObject({ fits: false, nearLimit: false });
    // Whatever fits the tab fits there too; the same costs are estimated in either.
    expect(scaleEstimate(30_000, 1000, 3, true)).toMatchObject({ fits: true, nearLimit: false });
    expect(scaleEstimate(60_000, 5000, 3, true).bytes).toBe(scaleEstimate(60_000, 5000, 3).bytes);
    expect(scaleEstimate(pods + 10_000, nodes, etcdMembers, true).fits).toBe(false);
    const en = scenarioTextsIn('en');
    const zh = scenarioTextsIn('zh');
    expect(en.estimate(scaleEstimate(pods, nodes, 1, true), nodes)).toContain('memory kept by the simulation in its own process with 1 etcd member once every Pod is Running');
    expect(en.estimateBeyondOwn(ownProcessRun)).toContain('(150,000 Pods on 5,000 nodes with 1 etcd member; its heap peaked at about 2.5 GiB)');
    expect(zh.estimate(scaleEstimate(pods, nodes, 3, true), nodes)).toContain('独立进程中的模拟（3 个 etcd 成员）保留');
    expect(zh.estimateBeyondOwn(ownProcessRun)).toContain('5,000 个节点上 150,000 个 Pod，1 个 etcd 成员');
  });

  it('asks before a large scenario only', () => {
    expect(asksBeforeStart(undefined)).toBe(false);
    expect(asksBeforeStart(1000)).toBe(false);
    expect(asksBeforeStart(30_000)).toBe(true);
  });

  it('says the time, the memory kept and which runs it comes from, in English and 中文', () => {
    const en = scenarioTextsIn('en');
    const zh = scenarioTextsIn('zh');
    expect(en.estimate(scaleEstimate(30_000, 1000, 1), 1000)).toBe('Before it starts, an estimate from measured runs of the model (1,000 Pods on 50 nodes; '
      + '2,000 and 10,000 on 500; 30,000 on 1,000; the CPU time also from 150,000 on 5,000; past them it is extrapolated): '
      + 'about 4 min of CPU time (132 Pods per CPU second at 1,000 nodes), '
      + 'and 0.8 GiB of memory kept by this tab\'s simulation with 1 etcd member once every Pod is Running (the worker\'s garbage comes on top, collected as the heap fills).');
    expect(en.estimate(scaleEstimate(30_000, 1000, 3), 1000)).toContain('with 3 etcd members');
    expect(en.estimateNear(workerHeapBytes)).toContain('(it ran out at about 1.8 GiB)');
    const big = zh.estimate(scaleEstimate(150_000, 5000, 3), 5000);
    expect(big).toContain('按模型的实测运行估算（50 个节点上 1,000 个 Pod；500 个节点上 2,000 个和 10,000 个；1,000 个节点上 30,000 个；CPU 时间另据 5,000 个节点上的 150,000 个；超出这些规模为外推）');
    expect(big).toContain('此标签页的模拟（3 个 etcd 成员）保留 5.3 GiB 的内存');
    expect(en.estimateTooBig(workerHeapBytes)).toContain('With fewer etcd members');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
