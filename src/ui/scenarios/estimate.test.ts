import { describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/index.ts';
import { asksBeforeStart, measuredRuns, memoryFit, peakRatio, scaleEstimate, tabHeapBytes } from './estimate.ts';
import { scenarioTextsIn } from './texts.ts';

await loadLanguage('zh');

const KiB = 1024;
const MiB = 1024 ** 2;

describe('the estimate before a scenario at scale starts', () => {
  it('comes close to the measured runs it is fitted to', () => {
    const estimates = measuredRuns.map((run) => ({ run, estimate: scaleEstimate(run.pods, run.nodes) }));
    for (const { run, estimate } of estimates) {
      // Speed within 5 % of each run; memory kept within 25 % (a plane through four runs whose per-Pod
      // part falls with size cannot pass through all of them).
      expect(Math.abs(estimate.podsPerCpuSecond / run.podsPerCpuSecond - 1)).toBeLessThan(0.05);
      expect(Math.abs(estimate.bytes / run.keptBytes - 1)).toBeLessThan(0.25);
    }
    // The largest run, the one past which the estimate extrapolates, within 3 %.
    const largest = estimates.at(-1)!;
    expect(largest.run.pods).toBe(30_000);
    expect(Math.abs(largest.estimate.bytes / largest.run.keptBytes - 1)).toBeLessThan(0.03);
    expect(largest.estimate.seconds / 60).toBeCloseTo(30_000 / 27.4 / 60, 0);
    // Each run's peak was 2.3–3.2 times what it kept; the ratio used lies between them.
    const ratios = measuredRuns.map((r) => r.peakBytes / r.keptBytes);
    expect(peakRatio).toBeGreaterThanOrEqual(Math.min(...ratios));
    expect(peakRatio).toBeLessThanOrEqual(Math.max(...ratios));
  });

  it('has parts a reader can check: a fixed heap, about 27 KiB per Pod, about 88 KiB per node', () => {
    expect(memoryFit.fixed / MiB).toBeCloseTo(111.1, 1);
    expect(memoryFit.perPod / KiB).toBeCloseTo(27.0, 1);
    expect(memoryFit.perNode / KiB).toBeCloseTo(87.8, 1);
    expect(peakRatio).toBeCloseTo(2.88, 2);
  });

  it('keeps 30,000 Pods on 1,000 nodes within a tab\'s heap, puts 150,000 on 5,000 past it', () => {
    const thirty = scaleEstimate(30_000, 1000);
    expect(thirty.podsPerCpuSecond).toBeCloseTo(27.8, 1);
    expect(thirty.bytes / 1024 ** 3).toBeCloseTo(0.96, 2);
    expect(thirty).toMatchObject({ fits: true, nearLimit: false });
    const big = scaleEstimate(150_000, 5000);
    expect(big.seconds / 3600).toBeCloseTo(4.5, 1);
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
      + '2,000 and 10,000 on 500; 30,000 on 1,000; past them it is extrapolated): about 18 min of CPU time (28 Pods per CPU second at 1,000 nodes), '
      + 'and 1 GiB of memory kept in this tab once every Pod is Running, with a peak near 2.8 GiB on the way.');
    expect(en.estimateNear(tabHeapBytes)).toContain('(about 4 GiB)');
    const big = zh.estimate(scaleEstimate(150_000, 5000), 5000);
    expect(big).toContain('按模型的实测运行估算（50 个节点上 1,000 个 Pod；500 个节点上 2,000 个和 10,000 个；1,000 个节点上 30,000 个；超出这些规模为外推）');
    expect(big).toContain('约 4.5 小时 的 CPU 时间（5,000 个节点时每 CPU 秒约 9 个 Pod）');
    expect(big).toContain('保留 4.4 GiB 的内存，过程中峰值接近 12.6 GiB');
    expect(en.estimateTooBig(tabHeapBytes)).toContain('(about 4 GiB)');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
