import { describe, expect, it } from 'vitest';
import { asksBeforeStart, bytesPerPod, podsPerCpuSecond, scaleEstimate, tabHeapBytes } from './estimate.ts';
import { scenarioTextsIn } from './texts.ts';

describe('the estimate before a scenario at scale starts', () => {
  it('scales with the Pods: 30,000 fit a tab, 150,000 do not', () => {
    expect(scaleEstimate(30_000)).toEqual({ seconds: 30_000 / podsPerCpuSecond, bytes: 30_000 * bytesPerPod, fits: true });
    expect(scaleEstimate(150_000).fits).toBe(false);
    expect(scaleEstimate(150_000).bytes).toBeGreaterThan(tabHeapBytes);
  });

  it('asks before a large scenario only', () => {
    expect(asksBeforeStart(undefined)).toBe(false);
    expect(asksBeforeStart(1000)).toBe(false);
    expect(asksBeforeStart(30_000)).toBe(true);
  });

  it('says the time in minutes or hours and the memory in GiB, in English and Chinese', () => {
    const en = scenarioTextsIn('en');
    const zh = scenarioTextsIn('zh');
    expect(en.estimate(scaleEstimate(30_000))).toBe('Before it starts: at least 14 min of CPU time and 3.1 GiB of memory in this tab, '
      + "from the model's speed and memory per Pod as measured (37 Pods per CPU second, 107 KiB per Pod; both grow with the cluster).");
    expect(en.estimate({ seconds: 4 * 3600, bytes: 0, fits: true })).toContain('at least 4 h of CPU time');
    expect(zh.estimate(scaleEstimate(150_000))).toContain('至少需要 68 分钟 的 CPU 时间和 15.3 GiB 的内存');
    expect(en.estimateTooBig(tabHeapBytes)).toContain('(about 4 GiB)');
    expect(zh.startAnyway).toBe('允许开始');
  });
});
