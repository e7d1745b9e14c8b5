// The Scenarios tab of the dock: the worker's scenario catalog (the seeds' flows and what follows them),
// one picked at a time with its description and its steps as a numbered list. "Next milestone" runs the
// scenario milestone by milestone: the first click sends the next step's command, each click moves the
// cluster to its next milestone, and once the step's work is done the next click starts the next step.
// "Run next step" and "Run all remaining steps" carry steps out whole. All go through the ordinary user
// commands (perform.ts), so they are user actions on the timeline like anything typed in the console.
// Starting on a cluster that already holds objects asks first (reset the cluster, or mix); so does a
// scenario at scale too large to be quick, after showing its estimated time and memory (estimate.ts).
// Stop pauses the cluster; "Run all remaining steps" goes on from there. Once a scenario at scale is done,
// what it teaches is measured and shown below its steps (ScaleLesson.tsx). Texts follow the page's language.

import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/shallow';
import type { ScenarioView } from '../../protocol/index.ts';
import { entryText } from '../console/activity.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import type { SimStore } from '../store/sim-store.ts';
import { usePrefs } from '../store/prefs.ts';
import { milestoneForward, performStep, startStep, stepWorkDone, stepWorkOk, StepStopped, waitFor } from './perform.ts';
import { asksBeforeStart, ownProcessRun, scaleEstimate, workerHeapBytes } from './estimate.ts';
import { workloadKeyCount } from './plan.ts';
import { runsOwnProcess } from '../sim-process.ts';
import { initialRun, stepFinished, stepRanCommand, stepStarted, type ScenarioRun } from './run-state.ts';
import { scenarioTextsIn, type ScenarioTexts } from './texts.ts';
import { ScaleLesson } from './ScaleLesson.tsx';
import { milestoneAt } from '../story/story.ts';
import { milestoneWords } from '../story/texts.ts';
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

/** The milestone the step shown belongs to, in words, while a step runs milestone by milestone. */
function AtMilestone({ t }: { t: ScenarioTexts }) {
  const language = usePrefs((p) => p.language);
  const milestone = useSim((s) => milestoneAt(s.milestones, s.timeline?.position ?? s.status.step));
  if (!milestone) return null;
  return <p className="scenario-message" data-testid="scenario-milestone" data-step={milestone.step}>{t.atMilestone(milestoneWords(milestone, language).title)}</p>;
}

/** A scenario at scale's Pods while it runs: how many are Running and Ready of those it ends with. */
function PodProgress({ total, t }: { total: number; t: ScenarioTexts }) {
  const held = useSim((s) => s.pods.byKey.size);
  // Summed over the nodes' groups (their per-state counts), not over every pod, on each store update.
  const ready = useSim((s) => {
    let running = 0;
    for (const group of s.pods.groups.values()) running += group.looks.running ?? 0;
    return running;
  });
  const text = t.podsReady(ready, held, total);
  return (
    <p className="scenario-pods" data-testid="scenario-pods" data-ready={ready}>
      <progress max={total} value={ready} aria-label={text} /> {text}
    </p>
  );
}

/** A large scenario's cost, estimated before it starts, with the button that allows starting it (`allow`). */
function CostEstimate({ pods, nodes, t, allow }: { pods: number; nodes: number; t: ScenarioTexts; allow: (() => void) | null }) {
  // With the etcd members of the cluster on show: a scenario resets to its nodes and keeps them.
  const etcdMembers = useSim((s) => s.cluster?.etcdMembers ?? 1);
  const ownProcess = runsOwnProcess();
  const estimate = scaleEstimate(pods, nodes, etcdMembers, ownProcess);
  return (
    <div className={`scenario-estimate${estimate.fits ? '' : ' too-big'}`} data-testid="scenario-estimate" data-fits={estimate.fits} role={allow ? 'alert' : undefined}>
      <p>{t.estimate(estimate, nodes)}</p>
      {!estimate.fits && <p>{ownProcess ? t.estimateBeyondOwn(ownProcessRun) : t.estimateTooBig(workerHeapBytes)}</p>}
      {estimate.nearLimit && <p>{t.estimateNear(workerHeapBytes)}</p>}
      {(!estimate.fits || estimate.nearLimit) && !ownProcess && <p data-testid="own-process-hint">{t.ownProcessHint}</p>}
      {allow && <button type="button" onClick={allow}>{t.startAnyway}</button>}
    </div>
  );
}

/**
 * Each page's pick and run, kept across remounts: the dock mounts its panel anew when the page's layout
 * changes (a resize), and a finished scenario at scale stays finished, its lesson shown, not asked again.
 */
const kept = new WeakMap<SimStore, { readonly pickedId: string | null; readonly run: ScenarioRun | null }>();

interface ActiveStep {
  readonly index: number;
  readonly watch: number | null;
  readonly entries: readonly number[];
}

function Steps({ scenario, run, t, stepping }: { scenario: ScenarioView; run: ScenarioRun; t: ScenarioTexts; stepping: number | null }) {
  return (
    <ol className="scenario-steps" aria-label={t.steps}>
      {scenario.steps.map((s, i) => {
        const state = run.steps[i]!;
        const status = state.status === 'pending' && i === run.next ? 'next' : state.status;
        const label = status === 'running' && stepping === i ? t.status.stepping : t.status[status];
        return (
          <li key={i} data-testid="scenario-step" data-status={status} data-stepping={stepping === i || undefined} aria-current={status === 'next' || stepping === i ? 'step' : undefined}>
            <div className="scenario-step-line">
              <code>{s.commandLine}</code>
              <span className={`scenario-status ${status}`}>{label}</span>
            </div>
            {stepping === i && <AtMilestone t={t} />}
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
  const t = scenarioTextsIn(language);
  const [pickedId, setPicked] = useState<string | null>(() => kept.get(store)?.pickedId ?? null);
  const picked = scenarios.find((s) => s.id === pickedId) ?? scenarios[0] ?? null;
  const [run, setRun] = useState<ScenarioRun | null>(() => kept.get(store)?.run ?? null);
  const [mixOk, setMixOk] = useState(false);
  const [costOk, setCostOk] = useState(false);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const runRef = useRef<ScenarioRun | null>(null);
  /** The step being run milestone by milestone: its index, run and the console entry that ends it. */
  const [active, setActive] = useState<ActiveStep | null>(null);

  // A run belongs to one scenario on one cluster: another pick or a new cluster starts over.
  const current = picked && run && run.scenarioId === picked.id && run.clusterVersion === clusterVersion ? run : picked ? initialRun(picked, clusterVersion) : null;
  useEffect(() => () => abort.current?.abort(), []);

  if (!picked || !current) return <div className="scenarios-panel"><p className="muted">{t.loading}</p></div>;

  const stepping = active !== null && active.index === current.next && current.steps[active.index]?.status === 'running' ? active : null;
  const finished = current.next >= picked.steps.length;
  const used = objectCount > 0 || userActions;
  const otherNodes = clusterNodes !== null && clusterNodes !== picked.nodes;
  const notStarted = current.next === 0 && current.steps.every((s) => s.status === 'pending');
  const inUse = notStarted && !mixOk && (used || otherNodes);
  const asks = asksBeforeStart(picked.pods) && notStarted && !costOk;
  const held = inUse || asks;

  const update = (next: ScenarioRun) => {
    runRef.current = next;
    kept.set(store, { pickedId: picked.id, run: next });
    setRun(next);
  };
  const pick = (id: string) => {
    kept.set(store, { pickedId: id, run: kept.get(store)?.run ?? null });
    setPicked(id);
  };

  const go = async (all: boolean) => {
    const controller = new AbortController();
    abort.current = controller;
    runRef.current = current;
    const open = stepping;
    setBusy(true);
    try {
      if (open) {
        // The step running milestone by milestone is finished first: its command was already sent.
        actions.runUntilIdle();
        const state = await waitFor(store, (s) => stepWorkDone(s, open.watch), controller.signal).catch((error: unknown) => {
          update(stepFinished(runRef.current!, open.index, { ok: false, entries: open.entries, message: error instanceof Error ? error.message : String(error) }));
          return null;
        });
        setActive(null);
        if (state === null) return;
        update(stepFinished(runRef.current!, open.index, { ok: stepWorkOk(state, open.watch), entries: open.entries }));
        if (!stepWorkOk(state, open.watch) || !all) return;
      }
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

  /**
   * One click of "Next milestone": sends the next step's command (and moves to its first milestone), or
   * moves the running step on by one milestone; a step whose work is done is marked so and the click
   * goes on to the next step.
   */
  const milestone = async () => {
    const controller = new AbortController();
    abort.current = controller;
    runRef.current = current;
    let running = stepping;
    setBusy(true);
    try {
      for (;;) {
        const index = runRef.current!.next;
        const view = picked.steps[index];
        if (!view) break;
        let moved = false;
        if (running === null || running.index !== index) {
          update(stepStarted(runRef.current!, index));
          const started = await startStep(store, actions, view, {
            signal: controller.signal,
            started: (id) => update(stepRanCommand(runRef.current!, index, id)),
          });
          if (started.result) {
            update(stepFinished(runRef.current!, index, started.result));
            running = null;
            setActive(null);
            break;
          }
          running = { index, watch: started.watch, entries: started.entries };
          setActive(running);
        }
        if (!stepWorkDone(store.getState(), running.watch)) {
          await milestoneForward(store, actions, controller.signal);
          moved = true;
        }
        const state = store.getState();
        if (stepWorkDone(state, running.watch)) {
          update(stepFinished(runRef.current!, index, { ok: stepWorkOk(state, running.watch), entries: running.entries }));
          running = null;
          setActive(null);
          if (!moved && runRef.current!.next > index) continue;
        }
        break;
      }
    } catch (error) {
      const index = runRef.current!.next;
      const message = error instanceof StepStopped ? error.message : String(error);
      if (runRef.current!.steps[index]) update(stepFinished(runRef.current!, index, { ok: false, entries: runRef.current!.steps[index]!.entries, message }));
      setActive(null);
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
          <select aria-label={t.scenario} value={picked.id} disabled={busy} onChange={(e) => { pick(e.target.value); setMixOk(false); setCostOk(false); }}>
            {scenarios.map((s) => <option key={s.id} value={s.id}>{s.title[language]}</option>)}
          </select>
        </label>
        {/* Above the description, which is long for a scenario at scale: in view while it runs. */}
        {picked.pods !== undefined && current.steps.some((s) => s.status !== 'pending') && <PodProgress total={picked.pods} t={t} />}
        <p className="scenario-description" data-testid="scenario-description">{picked.description[language]}</p>
        <p className="muted scenario-meta">
          {picked.source && <>{t.source}: {picked.source} · </>}
          {t.files}: {picked.manifests.map((m) => m.file).join(', ') || '—'}
        </p>
        {asksBeforeStart(picked.pods) && <CostEstimate pods={picked.pods} nodes={picked.nodes} t={t} allow={asks ? () => setCostOk(true) : null} />}
        {inUse && (
          <div className="scenario-warning" role="alert">
            {used && <p>{t.inUse(objectCount)}</p>}
            {otherNodes && <p>{t.nodes(picked.nodes, clusterNodes)}</p>}
            <button type="button" onClick={() => actions.reset(undefined, picked.nodes)}>{t.resetFirst}</button>
            <button type="button" onClick={() => setMixOk(true)}>{t.mix}</button>
          </div>
        )}
        <div className="scenario-controls" role="group" aria-label={t.controls(title)}>
          <button type="button" className="scenario-milestone" disabled={busy || finished || held} aria-label={t.nextMilestoneName} title={t.nextMilestoneHint}
            data-testid="scenario-next-milestone" onClick={() => void milestone()}>{t.nextMilestone}</button>
          <button type="button" disabled={busy || finished || held || stepping !== null} onClick={() => void go(false)}>{t.runNext}</button>
          <button type="button" disabled={busy || finished || held} onClick={() => void go(true)}>{t.runAll}</button>
          <button type="button" disabled={!busy} onClick={() => { abort.current?.abort(); actions.pause(); }}>{t.stop}</button>
          <button type="button" disabled={busy || current.next === 0} onClick={() => { update(initialRun(picked, clusterVersion)); setActive(null); setMixOk(false); setCostOk(false); }}>{t.startOver}</button>
        </div>
        <p className="muted" data-testid="scenario-progress" aria-live="polite">
          {finished ? t.finished(picked.steps.length) : t.progress(current.next, picked.steps.length)}
        </p>
      </div>
      <div className="scenario-main">
        <Steps scenario={picked} run={current} t={t} stepping={stepping?.index ?? null} />
        {picked.pods !== undefined && finished && <ScaleLesson run={current} />}
      </div>
    </div>
  );
}
