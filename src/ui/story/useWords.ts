// Hooks giving the story's words for a step or a milestone in the chosen language, with the request a
// response answers as context when the page still holds it.

import type { Milestone, TraceRecord } from '../../protocol/index.ts';
import { recentById } from '../panels/why.ts';
import { awaitsPayload, useWholePayloads } from '../store/payloads.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import { milestoneWords, stepWords, type MilestoneWords, type StepWords } from './texts.ts';

export function useStepWords(record: TraceRecord | undefined): StepWords | null {
  const language = usePrefs((prefs) => prefs.language);
  const request = useSimSnapshot((state) => (record?.replyTo == null ? undefined : recentById(state.recent).get(record.replyTo)));
  useWholePayloads([record, request]);
  // A light record's words wait for its whole payload (payloads.ts), a light request's are left out until then.
  if (!record || awaitsPayload(record)) return null;
  return stepWords(record, language, { request: awaitsPayload(request) ? undefined : request });
}

export function useMilestoneWords(milestone: Milestone | undefined): MilestoneWords | null {
  const language = usePrefs((prefs) => prefs.language);
  return milestone ? milestoneWords(milestone, language) : null;
}
