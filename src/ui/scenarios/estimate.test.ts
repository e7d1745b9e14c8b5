import { describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/index.ts';
import { asksBeforeStart, cpuFit, cpuRuns, memoryFit, memoryRuns, peakRatio, scaleEstimate, tabHeapBytes } from './estimate.ts';
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
    for (const run of memoryRuns) expect(Math.abs(scaleEstimate(run.pods, run.nodes).bytes / run.keptBytes - 1)).toBeLessThan(0.1);
    const largest = memoryRuns.at(-1)!;
    expect(largest.pods).toBe(30_000);
    expect(Math.abs(scaleEstimate(largest.pods, largest.nodes).bytes / largest.keptBytes - 1)).toBeLessThan(0.03);
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

  it('keeps 30,000 Pods on 1,000 nodes within a tab\'s heap, puts 150,000 on 5,000 past it', () => {
    const thirty = scaleEstimate(30_000, 1000);
    expect(thirty.podsPerCpuSecond).toBeCloseTo(132.2, 1);
    expect(thirty.bytes / 1024 ** 3).toBeCloseTo(0.93, 2);
    expect(thirty).toMatchObject({ fits: true, nearLimit: false });
    const big = scaleEstimate(150_000, 5000);
    expect(big.seconds / 60).toBeCloseTo(50.1, 1);
    expect(big.bytes / 1024 ** 3).toBeCloseTo(4.4, 1);
    expect(big).toMatchObject({ fits: false, nearLimit: false });
    expect(big.peakBytes).toBeGreaterThan(tabHeapBytes);
    expect(scaleEstimate(10_000, 500)).toMatchObject({ fits: true, nearLimit: false });
    // Close to the tab's heap somewhere between the two.
    expect(scaleEstimate(40_000, 1000)).toMatchObject({ fits: true, nearLimit: true });
  });

  it('asks before a large scenario only', () => {
    expect(asksBeforeStart(undefined)).toBe(false);
    expect(asksBeforeStart(1000)).toBe(false);
    expect(asksBeforeStart(30_000)).toBe(true);
  });

  it('says the time, the memory kept and its peak, and which runs it comes from, in English and 中文', () => {
    const en = scenarioTextsIn('en');
    const zh = scenarioTextsIn('zh');
    expect(en.estimate(scaleEstimate(30_000, 1000), 1000)).toBe('Before it starts, an estimate from measured runs of the model (1,000 Pods on 50 nodes; '
      + '2,000 and 10,000 on 500; 30,000 on 1,000; the CPU time also from 150,000 on 5,000; past them it is extrapolated): '
      + 'about 4 min of CPU time (132 Pods per CPU second at 1,000 nodes), '
      + 'and 0.9 GiB of memory kept in this tab once every Pod is Running, with a peak near 2.8 GiB on the way.');
    expect(en.estimateNear(tabHeapBytes)).toContain('(about 4 GiB)');
    const big = zh.estimate(scaleEstimate(150_000, 5000), 5000);
    expect(big).toContain('按模型的实测运行估算（50 个节点上 1,000 个 Pod；500 个节点上 2,000 个和 10,000 个；1,000 个节点上 30,000 个；CPU 时间另据 5,000 个节点上的 150,000 个；超出这些规模为外推）');
    expect(big).toContain('约 51 分钟 的 CPU 时间（5,000 个节点时每 CPU 秒约 50 个 Pod）');
    expect(big).toContain('保留 4.4 GiB 的内存，过程中峰值接近 12.9 GiB');
    expect(en.estimateTooBig(tabHeapBytes)).toContain('(about 4 GiB)');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
