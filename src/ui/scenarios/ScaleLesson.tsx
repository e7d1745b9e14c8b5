// What a finished scenario at scale teaches, in the Scenarios panel: mounted when its last step is done,
// it asks the worker to measure the lesson on the cluster (`measureScaleLesson`: two lists of every Pod
// sent as the user, traced like kubectl's), then shows each figure in words with why (lesson-texts.ts)
// and buttons that go to each list's request and answer on the timeline. Each finished run asks once; a
// lesson measured before it asked (an earlier run on the same cluster) is not shown: it waits for its own.

import { useEffect, useState } from 'react';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import type { SimStore } from '../store/sim-store.ts';
import type { ScenarioRun } from './run-state.ts';
import { usePrefs } from '../store/prefs.ts';
import { lessonTextsIn } from './lesson-texts.ts';

/** The finished run each page last asked a lesson for: asked once per run, however often the panel mounts. */
const askedFor = new WeakMap<SimStore, ScenarioRun>();

export function ScaleLesson({ run }: { run: ScenarioRun }) {
  const store = useSimStore();
  const actions = useSimActions();
  const language = usePrefs((p) => p.language);
  const lesson = useSim((s) => s.scaleLesson);
  // What the store held when this run's lesson was asked for is an older run's; undefined: asked before this mount.
  const [stale] = useState(() => (askedFor.get(store) === run ? undefined : store.getState().scaleLesson));
  useEffect(() => {
    if (askedFor.get(store) === run) return;
    askedFor.set(store, run);
    actions.measureScaleLesson();
  }, [store, actions, run]);
  const t = lessonTextsIn(language);
  const fresh = lesson !== null && lesson !== stale ? lesson : null;
  return (
    <section className="scenario-lesson" data-testid="scale-lesson" data-measured={fresh !== null} aria-label={t.title}>
      <h3>{t.title}</h3>
      {fresh === null ? <p className="muted">{t.measuring}</p> : (
        <ul>
          {t.lines(fresh).map((line) => (
            <li key={line.id} data-testid={`scale-lesson-${line.id}`}>
              {line.facts.map((fact) => (
                <div key={fact.text} className="scenario-lesson-fact" data-source={fact.list?.source}>
                  <p>{fact.text}</p>
                  {fact.list && (
                    <div className="scenario-lesson-go">
                      <button type="button" data-testid="scale-lesson-go-request" onClick={() => actions.seek(fact.list!.requestStep)}>{t.goRequest(fact.list.requestStep)}</button>
                      <button type="button" data-testid="scale-lesson-go-answer" onClick={() => actions.seek(fact.list!.answerStep)}>{t.goAnswer(fact.list.answerStep)}</button>
                    </div>
                  )}
                </div>
              ))}
              <p className="scenario-lesson-why">{line.why}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
