// Hooks giving the story's words for a step or a milestone in the chosen language, with the request a
// response answers as context when the page still holds it.

import type { Milestone, TraceRecord } from '../../protocol/index.ts';
import { recentById } from '../panels/why.ts';
import { useWholePayloads } from '../store/payloads.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { milestoneWords, stepWords, type MilestoneWords, type StepWords } from './texts.ts';

export function useStepWords(record: TraceRecord | undefined): StepWords | null {
  const language = usePrefs((prefs) => prefs.language);
  const request = useSimSnapshot((state) => (record?.replyTo == null ? undefined : recentById(state.recent).get(record.replyTo)));
  useWholePayloads([record, request]);
  return record ? stepWords(record, language, { request }) : null;
}

export function useMilestoneWords(milestone: Milestone | undefined): MilestoneWords | null {
  const language = usePrefs((prefs) => prefs.language);
  return milestone ? milestoneWords(milestone, language) : null;
}
