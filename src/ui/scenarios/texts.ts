// The Scenarios panel's labels in the two languages of the page, from the `scenarios` i18next namespace
// (locales/<lang>/scenarios.json), as one object per language for the panel to read.

import type { Language } from '../captions/captions.ts';
import { i18n } from '../i18n/index.ts';
import type { ScaleEstimate } from './estimate.ts';
import type { StepStatus } from './run-state.ts';

export interface ScenarioTexts {
  readonly loading: string;
  readonly scenario: string;
  readonly source: string;
  readonly files: string;
  readonly steps: string;
  readonly controls: (title: string) => string;
  readonly nextMilestone: string;
  readonly nextMilestoneName: string;
  readonly nextMilestoneHint: string;
  readonly runNext: string;
  readonly runAll: string;
  readonly stop: string;
  readonly startOver: string;
  readonly resetFirst: string;
  readonly mix: string;
  readonly inUse: (objects: number) => string;
  readonly nodes: (expected: number, actual: number) => string;
  readonly progress: (done: number, total: number) => string;
  readonly finished: (total: number) => string;
  readonly podsReady: (ready: number, held: number, total: number) => string;
  readonly estimate: (estimate: ScaleEstimate, nodes: number) => string;
  readonly estimateTooBig: (limitBytes: number) => string;
  readonly estimateNear: (limitBytes: number) => string;
  /** In a process of its own: past the largest cluster measured to run to the end there (estimate.ts `ownProcessRun`). */
  readonly estimateBeyondOwn: (run: { readonly pods: number; readonly nodes: number; readonly etcdMembers: number; readonly peakHeapBytes: number }) => string;
  /** Where the simulation would have memory of its own (`?process=own`, src/ui/sim-process.ts). */
  readonly ownProcessHint: string;
  readonly startAnyway: string;
  readonly atMilestone: (title: string) => string;
  readonly status: Record<StepStatus | 'next' | 'stepping', string>;
}

function textsIn(language: Language): ScenarioTexts {
  const t = i18n.getFixedT(language, 'scenarios');
  return {
    loading: t('loading'),
    scenario: t('scenario'),
    source: t('source'),
    files: t('files'),
    steps: t('steps'),
    controls: (title) => t('controls', { title }),
    nextMilestone: t('nextMilestone'),
    nextMilestoneName: t('nextMilestoneName'),
    nextMilestoneHint: t('nextMilestoneHint'),
    runNext: t('runNext'),
    runAll: t('runAll'),
    stop: t('stop'),
    startOver: t('startOver'),
    resetFirst: t('resetFirst'),
    mix: t('mix'),
    inUse: (count) => (count > 0 ? t('inUseObjects', { count }) : t('inUseCommands')),
    nodes: (expected, actual) => t('nodes', { expected, actual }),
    progress: (done, total) => t('progress', { done, total }),
    finished: (total) => t('finished', { total }),
    podsReady: (ready, held, total) => t('podsReady', { ready: ready.toLocaleString(language), held: held.toLocaleString(language), total: total.toLocaleString(language) }),
    estimate: ({ seconds, podsPerCpuSecond, bytes, etcdMembers, ownProcess }, nodes) => {
      const minutes = Math.ceil(seconds / 60);
      const time = minutes < 120 ? t('minutes', { n: minutes.toLocaleString(language) }) : t('hours', { n: (seconds / 3600).toLocaleString(language, { maximumFractionDigits: 1 }) });
      const members = t('members', { count: etcdMembers });
      const where = t(ownProcess ? 'whereOwn' : 'whereTab');
      return t('estimate', { time, memory: gib(bytes, language), rate: Math.round(podsPerCpuSecond).toLocaleString(language), nodes: nodes.toLocaleString(language), members, where });
    },
    estimateTooBig: (limitBytes) => t('estimateTooBig', { limit: gib(limitBytes, language) }),
    estimateNear: (limitBytes) => t('estimateNear', { limit: gib(limitBytes, language) }),
    estimateBeyondOwn: ({ pods, nodes, etcdMembers, peakHeapBytes }) => t('estimateBeyondOwn', {
      pods: pods.toLocaleString(language), nodes: nodes.toLocaleString(language), members: t('members', { count: etcdMembers }), peak: gib(peakHeapBytes, language),
    }),
    ownProcessHint: t('ownProcessHint'),
    startAnyway: t('startAnyway'),
    atMilestone: (title) => t('atMilestone', { title }),
    status: { pending: '', next: t('status.next'), running: t('status.running'), stepping: t('status.stepping'), done: t('status.done'), failed: t('status.failed') },
  };
}

/** Bytes as GiB with one decimal. */
function gib(bytes: number, language: Language): string {
  return `${(bytes / 1024 ** 3).toLocaleString(language, { maximumFractionDigits: 1 })} GiB`;
}

const cache = new Map<Language, ScenarioTexts>();

/** The panel's texts in `language` (built once per language, once its texts are loaded: i18n/index.ts). */
export function scenarioTextsIn(language: Language): ScenarioTexts {
  let texts = cache.get(language);
  if (!texts) {
    texts = textsIn(language);
    if (i18n.hasResourceBundle(language, 'scenarios')) cache.set(language, texts);
  }
  return texts;
}
