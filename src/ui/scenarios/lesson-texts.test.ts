import { describe, expect, it } from 'vitest';
import type { ScaleLessonView } from '../../protocol/index.ts';
import { loadLanguage } from '../i18n/index.ts';
import { lessonTextsIn } from './lesson-texts.ts';

await loadLanguage('zh');

const lesson: ScaleLessonView = {
  lists: [
    { source: 'etcd', query: '', status: 200, items: 1000, responseBytes: 3_456_789, etcdBytes: 1_234_567, ms: 14.25, requestStep: 146_001, answerStep: 146_009 },
    { source: 'watch cache', query: 'resourceVersion=0', status: 200, items: 1000, responseBytes: 3_456_700, etcdBytes: 0, ms: 3, requestStep: 146_020, answerStep: 146_023 },
  ],
  podWatchCache: { events: 5321, capacity: 8192, objects: 1000 },
  pods: 1000,
  events: 4012,
  scheduler: { attempts: 1003, perSecond: 41.26 },
};

describe('the lesson of a scenario at scale in words', () => {
  it('says each figure the worker measured, with why, in English', () => {
    const t = lessonTextsIn('en');
    const lines = t.lines(lesson);
    expect(lines.map((l) => l.id)).toEqual(['lists', 'window', 'events', 'scheduler']);
    expect(lines[0]!.facts.map((f) => f.text)).toEqual([
      'Listing all 1,000 Pods from etcd: 1.2 MB read from etcd, 14.3 ms (the answer: 3.5 MB).',
      'From the watch cache (resourceVersion=0): 0 bytes from etcd, 3 ms (the answer: 3.5 MB).',
    ]);
    expect(lines[0]!.facts.map((f) => f.list?.requestStep)).toEqual([146_001, 146_020]);
    expect(lines[0]!.why).toMatch(/^Why: without a resourceVersion kube-apiserver reads every Pod's stored bytes from etcd/);
    expect(lines[1]!.facts[0]!.text).toBe('The Pods\' watch cache keeps the last 5,321 events, of a capacity of 8,192 (1,000 Pods in its current state).');
    expect(lines[2]!.facts[0]!.text).toBe('4,012 Events stored in etcd beside 1,000 Pods.');
    expect(lines[3]!.facts[0]!.text).toBe('kube-scheduler: 1,003 scheduling attempts, 41.3 per second of virtual time.');
    for (const line of lines) expect(line.why).toMatch(/^Why: /);
    expect(t.goRequest(146_001)).toBe('Go to its request (step 146,001)');
    expect(t.goAnswer(146_009)).toBe('Go to its answer (step 146,009)');
  });

  it('says the same in 中文, and leaves out a window it did not measure', () => {
    const t = lessonTextsIn('zh');
    const lines = t.lines({ ...lesson, podWatchCache: null, lists: lesson.lists.map((l) => ({ ...l, etcdBytes: l.etcdBytes / 2_000, ms: l.ms * 100 })) });
    expect(lines.map((l) => l.id)).toEqual(['lists', 'events', 'scheduler']);
    expect(lines[0]!.facts.map((f) => f.text)).toEqual([
      '从 etcd 列出全部 1,000 个 Pod：从 etcd 读出 617 字节，耗时 1.4 秒（应答 3.5 MB）。',
      '从 watch cache 列出（resourceVersion=0）：从 etcd 读出 0 字节，耗时 300 毫秒（应答 3.5 MB）。',
    ]);
    expect(lines[1]!.facts[0]!.text).toBe('etcd 中与 1,000 个 Pod 一起存储着 4,012 个 Event。');
    for (const line of lines) expect(line.why).toMatch(/^原因：/);
    expect(t.goRequest(146_001)).toBe('转到它的请求（第 146,001 步）');
  });
});
