// The console: type kubectl or etcdctl command lines; each runs as the user component, so its requests
// travel the graph like any other message and its output grows as the simulation delivers the replies.
// ↑/↓ walk the history, Tab completes verbs, resource types and the names of existing objects, Ctrl-C
// interrupts the newest running command (a `-w` watch is cancelled). `-f -` reads the YAML editor's text.

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/shallow';
import { editorStore } from '../editor/editor-store.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import type { ConsoleEntry } from './activity.ts';
import { complete } from './complete.ts';

const historyLimit = 100;

function Entry({ entry }: { entry: ConsoleEntry }) {
  const { t } = useTranslation('console');
  const actions = useSimActions();
  return (
    <li className="console-entry" data-testid="console-entry" data-done={entry.done} data-exit-code={entry.exitCode ?? undefined}>
      <div className="console-line">
        <span className="prompt" aria-hidden>$</span> <code>{entry.line}</code>
        {entry.origin === 'editor' && <span className="badge">{t('fromEditor')}</span>}
        {!entry.done && <button type="button" className="link-button" onClick={() => actions.interruptCommand(entry.id)}>{t('interrupt')}</button>}
      </div>
      <pre className="console-output" data-testid="console-output">
        {entry.output.map((chunk, i) => <span key={i} className={chunk.stream}>{chunk.text}</span>)}
        {!entry.done && entry.output.length === 0 && <span className="muted">{t('waiting')}</span>}
      </pre>
    </li>
  );
}

export function ConsolePanel() {
  const { t } = useTranslation('console');
  const actions = useSimActions();
  const store = useSimStore();
  const entries = useSim(useShallow((s) => s.activity.entries.filter((e) => e.origin === 'console')));
  const [line, setLine] = useState('');
  const [history, setHistory] = useState<string[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [candidates, setCandidates] = useState<readonly string[]>([]);
  const transcript = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const list = transcript.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [entries]);

  const submit = () => {
    const text = line.trim();
    if (text === '') return;
    const stdin = /(^|\s)(-f|--filename)(\s+|=)-(\s|$)/.test(text) ? editorStore.getState().text : undefined;
    actions.runCommand(text, { ...(stdin !== undefined ? { stdin } : {}), origin: 'console' });
    setHistory((h) => [...h.filter((x) => x !== text), text].slice(-historyLimit));
    setCursor(null);
    setLine('');
    setCandidates([]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    } else if (event.key === 'ArrowUp' && history.length > 0) {
      event.preventDefault();
      const next = cursor === null ? history.length - 1 : Math.max(0, cursor - 1);
      setCursor(next);
      setLine(history[next]!);
    } else if (event.key === 'ArrowDown' && cursor !== null) {
      event.preventDefault();
      const next = cursor + 1;
      setCursor(next >= history.length ? null : next);
      setLine(next >= history.length ? '' : history[next]!);
    } else if (event.key === 'Tab') {
      event.preventDefault();
      const { keyspace, scenarios } = store.getState();
      const result = complete(line, keyspace.live.keys, scenarios.flatMap((sc) => sc.manifests.map((m) => m.file)));
      setLine(result.line);
      setCandidates(result.candidates);
    } else if (event.key === 'c' && event.ctrlKey) {
      const running = [...store.getState().activity.entries].reverse().find((e) => !e.done && e.origin === 'console');
      if (running) {
        event.preventDefault();
        actions.interruptCommand(running.id);
      }
    }
  };

  return (
    <div className="console-panel">
      <ol className="console-transcript" ref={transcript} aria-label={t('transcript')}>
        {entries.map((e) => <Entry key={e.id} entry={e} />)}
      </ol>
      {candidates.length > 0 && <p className="completions" data-testid="completions">{candidates.join('  ')}</p>}
      <form className="console-input" onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <span className="prompt" aria-hidden>$</span>
        <input
          aria-label={t('commandLine')}
          value={line}
          spellCheck={false}
          autoComplete="off"
          placeholder={t('placeholder')}
          onChange={(e) => { setLine(e.target.value); setCursor(null); }}
          onKeyDown={onKeyDown}
        />
        <button type="submit">{t('run')}</button>
      </form>
    </div>
  );
}
