// The words the story panel, the timeline and Why? use for milestones and steps. The captions helper owns
// them (src/ui/captions: `milestoneText`, `describeStep`); this module is the one place the story UI
// reaches them.

import type { Milestone, TraceRecord } from '../../protocol/index.ts';
import { describeStep, type CaptionContext, type Language } from '../captions/captions.ts';
import { milestoneText } from '../captions/milestones.ts';

export interface MilestoneWords {
  /** A plain sentence naming the real object, node and etcd revision. */
  readonly title: string;
  /** ≤ 32 characters, for timeline labels. */
  readonly short: string;
}

export interface StepWords {
  readonly plain: string;
  readonly technical: string;
}

// Milestones are immutable values held by the store: their words are worked out once per language (the
// timeline redraws its markers every tick while playing, and each asks for its words).
const wordsCache: Record<Language, WeakMap<Milestone, MilestoneWords>> = { en: new WeakMap(), zh: new WeakMap() };

export function milestoneWords(milestone: Milestone, language: Language): MilestoneWords {
  const cache = wordsCache[language];
  let words = cache.get(milestone);
  if (words === undefined) {
    words = milestoneText(milestone, language);
    cache.set(milestone, words);
  }
  return words;
}

export function stepWords(record: Omit<TraceRecord, 'step'>, language: Language, context: CaptionContext = {}): StepWords {
  return describeStep(record, language, context);
}
