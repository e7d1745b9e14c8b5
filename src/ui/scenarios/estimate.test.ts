import { describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/index.ts';
import { asksBeforeStart, measuredRuns, memoryFit, peakRatio, scaleEstimate, tabHeapBytes } from './estimate.ts';
import { scenarioTextsIn } from './texts.ts';

await loadLanguage('zh');

const KiB = 1024;
const MiB = 1024 ** 2;

describe('the estimate before a scenario at scale starts', () => {
  it('gives back the measured runs it is fitted to', () => {
    const [small, mid, large] = measuredRuns.map((run) => ({ run, estimate: scaleEstimate(run.pods, run.nodes) }));
    // Speed: exact at 50 nodes; at 500 nodes the line goes between the two runs' 38 and 38.1.
    expect(small!.estimate.podsPerCpuSecond).toBeCloseTo(51.6, 1);
    expect(mid!.estimate.podsPerCpuSecond).toBeCloseTo(38.05, 1);
    expect(large!.estimate.podsPerCpuSecond).toBeCloseTo(38.05, 1);
    expect(large!.estimate.seconds).toBeCloseTo(10_000 / 38.05, -1);
    // Memory kept: through each run's booted cluster + its retained Pods (117.6, 179.5, 490.1 MiB).
    for (const { run, estimate } of [small!, mid!, large!]) expect(estimate.bytes / MiB).toBeCloseTo(run.keptBytes / MiB, 6);
    expect(large!.estimate.bytes / MiB).toBeCloseTo(91.7 + 10_000 * 40.8 / 1024, 3);
    // Each run's peak was about three times what it kept; the ratio used lies between them.
    const ratios = measuredRuns.map((r) => r.peakBytes / r.keptBytes);
    expect(peakRatio).toBeGreaterThanOrEqual(Math.min(...ratios));
    expect(peakRatio).toBeLessThanOrEqual(Math.max(...ratios));
    expect(peakRatio).toBeCloseTo(3.07, 2);
  });

  it('has parts a reader can check: a fixed heap, about 40 KiB per Pod, about 52 KiB per node', () => {
    expect(memoryFit.fixed / MiB).toBeCloseTo(76.2, 1);
    expect(memoryFit.perPod / KiB).toBeCloseTo(39.8, 1);
    expect(memoryFit.perNode / KiB).toBeCloseTo(52.5, 1);
  });

  it('puts 30,000 Pods on 1,000 nodes close to a tab\'s heap, 150,000 on 5,000 past it', () => {
    const thirty = scaleEstimate(30_000, 1000);
    expect(thirty.podsPerCpuSecond).toBeCloseTo(29.5, 1);
    expect(thirty.seconds / 60).toBeCloseTo(17, 0);
    expect(thirty.bytes / 1024 ** 3).toBeCloseTo(1.26, 2);
    expect(thirty).toMatchObject({ fits: true, nearLimit: true });
    const big = scaleEstimate(150_000, 5000);
    expect(big.seconds / 3600).toBeCloseTo(4, 1);
    expect(big.bytes / 1024 ** 3).toBeCloseTo(6.0, 1);
    expect(big).toMatchObject({ fits: false, nearLimit: false });
    expect(big.peakBytes).toBeGreaterThan(tabHeapBytes);
    expect(scaleEstimate(10_000, 500)).toMatchObject({ fits: true, nearLimit: false });
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
      + '2,000 and 10,000 on 500; past them it is extrapolated): about 17 min of CPU time (29 Pods per CPU second at 1,000 nodes), '
      + 'and 1.3 GiB of memory kept in this tab once every Pod is Running, with a peak near 3.9 GiB on the way.');
    expect(en.estimateNear(tabHeapBytes)).toContain('(about 4 GiB)');
    const big = zh.estimate(scaleEstimate(150_000, 5000), 5000);
    expect(big).toContain('按模型的实测运行估算（50 个节点上 1,000 个 Pod；500 个节点上 2,000 个和 10,000 个；超出这些规模为外推）');
    expect(big).toContain('约 4 小时 的 CPU 时间（5,000 个节点时每 CPU 秒约 10 个 Pod）');
    expect(big).toContain('保留 6 GiB 的内存，过程中峰值接近 18.5 GiB');
    expect(en.estimateTooBig(tabHeapBytes)).toContain('(about 4 GiB)');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
