// The lesson of a scenario at scale in plain words (the `scenarios` namespace's `lesson` keys, en and 中文):
// each figure the worker measured (protocol/scale-lesson.ts) as one sentence, with a one-line why. Every
// number comes from the lesson; nothing here is a figure of its own.

import type { ListCostView, ScaleLessonView } from '../../protocol/index.ts';
import type { Language } from '../captions/captions.ts';
import { i18n } from '../i18n/index.ts';

/** A figure in words; a list's names the steps of its request and answer, for the page to go to. */
export interface LessonFact {
  readonly text: string;
  readonly list?: ListCostView;
}

/** One thing the run teaches: what was measured and why it is so. */
export interface LessonLine {
  readonly id: 'lists' | 'window' | 'events' | 'scheduler';
  readonly facts: readonly LessonFact[];
  readonly why: string;
}

export interface LessonTexts {
  readonly title: string;
  readonly measuring: string;
  readonly lines: (lesson: ScaleLessonView) => LessonLine[];
  readonly goRequest: (step: number) => string;
  readonly goAnswer: (step: number) => string;
}

/** `n` with at most one decimal, in the page's language. */
function number(n: number, language: Language, decimals = 1): string {
  return n.toLocaleString(language, { maximumFractionDigits: decimals });
}

export function lessonTextsIn(language: Language): LessonTexts {
  const t = i18n.getFixedT(language, 'scenarios', 'lesson');
  const count = (n: number) => number(n, language, 0);
  // Decimal units, as a network figure is given (1.2 MB = 1,200,000 bytes).
  const bytes = (n: number) => (n < 1000 ? t('bytes', { n: count(n) }) : n < 1e6 ? t('kilobytes', { n: number(n / 1e3, language) }) : t('megabytes', { n: number(n / 1e6, language) }));
  const time = (ms: number) => (ms < 1000 ? t('milliseconds', { n: number(ms, language) }) : t('seconds', { n: number(ms / 1000, language) }));
  const list = (key: 'listEtcd' | 'listCache', cost: ListCostView | undefined): LessonFact[] =>
    cost ? [{ text: t(key, { items: count(cost.items), etcdBytes: bytes(cost.etcdBytes), ms: time(cost.ms), responseBytes: bytes(cost.responseBytes) }), list: cost }] : [];
  const fact = (text: string): LessonFact[] => [{ text }];
  return {
    title: t('title'),
    measuring: t('measuring'),
    lines: (lesson) => {
      const fromEtcd = lesson.lists.find((l) => l.source === 'etcd');
      const fromCache = lesson.lists.find((l) => l.source === 'watch cache');
      const window = lesson.podWatchCache;
      return [
        { id: 'lists', facts: [...list('listEtcd', fromEtcd), ...list('listCache', fromCache)], why: t('listsWhy') },
        ...(window ? [{ id: 'window' as const, facts: fact(t('window', { events: count(window.events), capacity: count(window.capacity), objects: count(window.objects) })), why: t('windowWhy') }] : []),
        { id: 'events', facts: fact(t('events', { events: count(lesson.events), pods: count(lesson.pods) })), why: t('eventsWhy') },
        { id: 'scheduler', facts: fact(t('scheduler', { attempts: count(lesson.scheduler.attempts), rate: number(lesson.scheduler.perSecond, language) })), why: t('schedulerWhy') },
      ];
    },
    goRequest: (step) => t('goRequest', { step: count(step) }),
    goAnswer: (step) => t('goAnswer', { step: count(step) }),
  };
}
