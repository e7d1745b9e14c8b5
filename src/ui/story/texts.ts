// The words the story panel, the timeline and Why? use for milestones and steps. The captions helper owns
// them (src/ui/captions: `milestoneText`, `describeStep`); this module is the one place the story UI
// reaches them, with a plain fallback for kinds or branches that do not have them yet.

import type { Milestone, TraceRecord } from '../../protocol/index.ts';
import { caption, type CaptionContext, type Language } from '../captions/captions.ts';

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

function objectName(m: Milestone): string {
  return 'object' in m && m.object ? `${m.object.kind} ${m.object.name}` : '';
}

function fallbackMilestone(m: Milestone, language: Language): MilestoneWords {
  const name = objectName(m);
  const rev = 'revision' in m ? m.revision : null;
  const title = [m.kind, name, 'node' in m && m.node ? `node ${m.node}` : '', rev !== null ? (language === 'zh' ? `修订版本 ${rev}` : `revision ${rev}`) : '']
    .filter(Boolean).join(' · ');
  const short = `${m.kind} ${name}`.slice(0, 32);
  return { title, short };
}

export function milestoneWords(milestone: Milestone, language: Language): MilestoneWords {
  return fallbackMilestone(milestone, language);
}

export function stepWords(record: Omit<TraceRecord, 'step'>, language: Language, context: CaptionContext = {}): StepWords {
  const line = caption(record, language, context);
  return { plain: line, technical: line };
}
