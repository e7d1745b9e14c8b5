import { describe, expect, it } from 'vitest';
import { asksBeforeStart, bytesPerPod, scaleEstimate, tabHeapBytes } from './estimate.ts';
import { scenarioTextsIn } from './texts.ts';

describe('the estimate before a scenario at scale starts', () => {
  it('grows with Pods and nodes: the bench\'s speeds at 50 and 1,000 nodes; 30,000 Pods fit a tab, 150,000 do not', () => {
    expect(scaleEstimate(1000, 50).podsPerCpuSecond).toBeCloseTo(37, 0);
    expect(scaleEstimate(30_000, 1000)).toMatchObject({ bytes: 30_000 * bytesPerPod, fits: true });
    expect(scaleEstimate(30_000, 1000).podsPerCpuSecond).toBeCloseTo(12.6, 1);
    expect(scaleEstimate(30_000, 1000).seconds).toBeCloseTo(30_000 / scaleEstimate(30_000, 1000).podsPerCpuSecond);
    expect(scaleEstimate(150_000, 5000).fits).toBe(false);
    expect(scaleEstimate(150_000, 5000).bytes).toBeGreaterThan(tabHeapBytes);
  });

  it('asks before a large scenario only', () => {
    expect(asksBeforeStart(undefined)).toBe(false);
    expect(asksBeforeStart(1000)).toBe(false);
    expect(asksBeforeStart(30_000)).toBe(true);
  });

  it('says the time in minutes or hours and the memory in GiB, in English and Chinese', () => {
    const en = scenarioTextsIn('en');
    const zh = scenarioTextsIn('zh');
    expect(en.estimate(scaleEstimate(30_000, 1000), 1000)).toBe('Before it starts: at least 40 min of CPU time and 3.1 GiB of memory in this tab, '
      + "from the model's speed and memory per Pod as measured (about 13 Pods per CPU second at 1,000 nodes, 107 KiB per Pod; both grow with the cluster).");
    expect(zh.estimate(scaleEstimate(150_000, 5000), 5000)).toContain('5,000 个节点时每 CPU 秒约 3 个 Pod');
    expect(zh.estimate(scaleEstimate(150_000, 5000), 5000)).toContain('至少需要 12.5 小时 的 CPU 时间和 15.3 GiB 的内存');
    expect(en.estimateTooBig(tabHeapBytes)).toContain('(about 4 GiB)');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
