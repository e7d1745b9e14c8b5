// The Scenarios tab of the dock: the worker's scenario catalog (the seeds' flows and what follows them),
// one picked at a time with its description and its steps as a numbered list. "Run next step" and "Run all
// remaining steps" carry the steps out through the ordinary user commands (perform.ts), so they are user
// actions on the timeline like anything typed in the console. Starting on a cluster that already holds
// objects asks first (reset the cluster, or mix). Texts follow the caption language.

import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/shallow';
import type { ScenarioView } from '../../protocol/index.ts';
import { entryText } from '../console/activity.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import { usePrefs } from '../store/prefs.ts';
import { performStep, StepStopped } from './perform.ts';
import { workloadKeyCount } from './plan.ts';
import { initialRun, stepFinished, stepRanCommand, stepStarted, type ScenarioRun } from './run-state.ts';
import { scenarioTexts, type ScenarioTexts } from './texts.ts';
import './scenarios.css';

function StepOutput({ ids }: { ids: readonly number[] }) {
  const entries = useSim(useShallow((s) => s.activity.entries.filter((e) => ids.includes(e.id))));
  if (entries.length === 0) return null;
  return (
    <pre className="scenario-output" data-testid="scenario-step-output">
      {entries.map((e) => `$ ${e.line}\n${entryText(e)}`).join('')}
    </pre>
  );
}

function Steps({ scenario, run, t }: { scenario: ScenarioView; run: ScenarioRun; t: ScenarioTexts }) {
  return (
    <ol className="scenario-steps" aria-label={t.steps}>
      {scenario.steps.map((s, i) => {
        const state = run.steps[i]!;
        const status = state.status === 'pending' && i === run.next ? 'next' : state.status;
        return (
          <li key={i} data-testid="scenario-step" data-status={status} aria-current={status === 'next' ? 'step' : undefined}>
            <div className="scenario-step-line">
              <code>{s.commandLine}</code>
              <span className={`scenario-status ${status}`}>{t.status[status]}</span>
            </div>
            {state.message && <p className="scenario-message">{state.message}</p>}
            <StepOutput ids={state.entries} />
          </li>
        );
      })}
    </ol>
  );
}

export function ScenariosPanel() {
  const store = useSimStore();
  const actions = useSimActions();
  const scenarios = useSim((s) => s.scenarios);
  const clusterVersion = useSim((s) => s.cluster?.version ?? 0);
  const clusterNodes = useSim((s) => s.cluster?.nodes ?? null);
  const objectCount = useSim((s) => workloadKeyCount(s.keyspace.live.keys));
  const userActions = useSim((s) => s.timeline?.markers.some((m) => m.kind === 'command') ?? false);
  const language = usePrefs((p) => p.language);
  const t = scenarioTexts[language];
  const [pickedId, setPickedId] = useState<string | null>(null);
  const picked = scenarios.find((s) => s.id === pickedId) ?? scenarios[0] ?? null;
  const [run, setRun] = useState<ScenarioRun | null>(null);
  const [mixOk, setMixOk] = useState(false);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const runRef = useRef<ScenarioRun | null>(null);

  // A run belongs to one scenario on one cluster: another pick or a new cluster starts over.
  const current = picked && run && run.scenarioId === picked.id && run.clusterVersion === clusterVersion ? run : picked ? initialRun(picked, clusterVersion) : null;
  useEffect(() => () => abort.current?.abort(), []);

  if (!picked || !current) return <div className="scenarios-panel"><p className="muted">{t.loading}</p></div>;

  const finished = current.next >= picked.steps.length;
  const used = objectCount > 0 || userActions;
  const otherNodes = clusterNodes !== null && clusterNodes !== picked.nodes;
  const inUse = current.next === 0 && !mixOk && (used || otherNodes);

  const update = (next: ScenarioRun) => {
    runRef.current = next;
    setRun(next);
  };

  const go = async (all: boolean) => {
    const controller = new AbortController();
    abort.current = controller;
    runRef.current = current;
    setBusy(true);
    try {
      do {
        const index = runRef.current!.next;
        const view = picked.steps[index];
        if (!view) break;
        update(stepStarted(runRef.current!, index));
        let result;
        try {
          result = await performStep(store, actions, view, {
            signal: controller.signal,
            started: (id) => update(stepRanCommand(runRef.current!, index, id)),
          });
        } catch (error) {
          const message = error instanceof StepStopped ? error.message : String(error);
          update(stepFinished(runRef.current!, index, { ok: false, entries: runRef.current!.steps[index]!.entries, message }));
          break;
        }
        update(stepFinished(runRef.current!, index, result));
        if (!result.ok) break;
      } while (all && !controller.signal.aborted);
    } finally {
      abort.current = null;
      setBusy(false);
    }
  };

  const title = picked.title[language];
  return (
    <div className="scenarios-panel">
      <div className="scenario-side">
        <label className="scenario-pick">
          {t.scenario}
          <select aria-label={t.scenario} value={picked.id} disabled={busy} onChange={(e) => { setPickedId(e.target.value); setMixOk(false); }}>
            {scenarios.map((s) => <option key={s.id} value={s.id}>{s.title[language]}</option>)}
          </select>
        </label>
        <p className="scenario-description" data-testid="scenario-description">{picked.description[language]}</p>
        <p className="muted scenario-meta">
          {picked.source && <>{t.source}: {picked.source} · </>}
          {t.files}: {picked.manifests.map((m) => m.file).join(', ') || '—'}
        </p>
        {inUse && (
          <div className="scenario-warning" role="alert">
            {used && <p>{t.inUse(objectCount)}</p>}
            {otherNodes && <p>{t.nodes(picked.nodes, clusterNodes)}</p>}
            <button type="button" onClick={() => actions.reset(undefined, picked.nodes)}>{t.resetFirst}</button>
            <button type="button" onClick={() => setMixOk(true)}>{t.mix}</button>
          </div>
        )}
        <div className="scenario-controls" role="group" aria-label={t.controls(title)}>
          <button type="button" disabled={busy || finished || inUse} onClick={() => void go(false)}>{t.runNext}</button>
          <button type="button" disabled={busy || finished || inUse} onClick={() => void go(true)}>{t.runAll}</button>
          <button type="button" disabled={!busy} onClick={() => { abort.current?.abort(); actions.pause(); }}>{t.stop}</button>
          <button type="button" disabled={busy || current.next === 0} onClick={() => { update(initialRun(picked, clusterVersion)); setMixOk(false); }}>{t.startOver}</button>
        </div>
        <p className="muted" data-testid="scenario-progress" aria-live="polite">
          {finished ? t.finished(picked.steps.length) : t.progress(current.next, picked.steps.length)}
        </p>
      </div>
      <Steps scenario={picked} run={current} t={t} />
    </div>
  );
}
