// The YAML editor: presets from the seeds (the scenarios' files), Create / Apply / Replace / Delete as `kubectl … -f -` of the
// editor's text (every request animates like any other), editing a live object fetched with its
// resourceVersion, and the answers marked in the text: YAML syntax errors before anything is sent,
// server errors (422 causes, 409, 403, 404) at the field they name. A 409 Conflict on a live edit
// offers "Reload and retry": fetch the object again, carry the edits over, replace again.

import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { ManifestProblem } from '../../protocol/index.ts';
import { entryText, type ConsoleEntry } from '../console/activity.ts';
import { commandDone } from '../console/wait.ts';
import { usePrefs } from '../store/prefs.ts';
import { useSim, useSimActions, useSimStore } from '../store/sim-context.ts';
import { editorStore, setEditorText } from './editor-store.ts';
import { editorPresets } from './presets.ts';
import type { EditorMarker } from './YamlEditor.tsx';

const YamlEditor = lazy(() => import('./YamlEditor.tsx'));
const loadChecks = () => import('./yaml-check.ts');

type Verb = 'create' | 'apply' | 'replace' | 'delete';

function isConflict(entry: ConsoleEntry | null): boolean {
  return entry !== null && entry.done && entry.problems.some((p) => p.code === 409 && p.reason === 'Conflict');
}

export function EditorPanel() {
  const { t } = useTranslation('editor');
  const dark = useDarkTheme();
  const actions = useSimActions();
  const store = useSimStore();
  const text = useStore(editorStore, (s) => s.text);
  const loaded = useStore(editorStore, (s) => s.loaded);
  const scenarios = useSim((s) => s.scenarios);
  const presets = useMemo(() => editorPresets(scenarios), [scenarios]);
  const [sent, setSent] = useState<{ id: number; text: string } | null>(null);
  const [syntax, setSyntax] = useState<EditorMarker[]>([]);
  const [located, setLocated] = useState<{ readonly problems: readonly ManifestProblem[]; readonly markers: EditorMarker[] } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [liveRef, setLiveRef] = useState('deployment/nginx-deployment');
  const entry = useSim((s) => (sent === null ? null : s.activity.entries.find((e) => e.id === sent.id) ?? null));
  const problems = entry?.problems;

  useEffect(() => {
    if (!sent || !problems || problems.length === 0) return;
    let live = true;
    void loadChecks().then(({ locateField }) => {
      if (!live) return;
      setLocated({
        problems,
        markers: problems.map((p) => (p.line !== undefined
          ? { line: p.line, column: p.column ?? 1, message: p.message }
          : { ...locateField(sent.text, p.objectLine ?? 1, p.field), message: p.message })),
      });
    });
    return () => { live = false; };
  }, [problems, sent]);
  const server = located !== null && located.problems === problems ? located.markers : [];

  const run = (verb: Verb, yamlText: string) => {
    setSent({ id: actions.runCommand(`kubectl ${verb} -f -`, { stdin: yamlText, origin: 'editor' }), text: yamlText });
  };

  const send = async (verb: Verb) => {
    const { syntaxProblems } = await loadChecks();
    const found = syntaxProblems(text);
    if (found.length > 0) {
      setSyntax(found);
      setSent(null);
      setNote(t('notes.unparsable', { line: found[0]!.line, column: found[0]!.column }));
      return;
    }
    setSyntax([]);
    setNote(null);
    run(verb, text);
  };

  const loadLive = async (event: FormEvent) => {
    event.preventDefault();
    const ref = liveRef.trim();
    if (ref === '') return;
    setNote(t('notes.fetching', { ref }));
    const fetched = await commandDone(store, actions.runCommand(`kubectl get ${ref} -o yaml`, { origin: 'editor' }));
    if (fetched.exitCode !== 0) {
      setNote(entryText(fetched, 'stderr').trim());
      return;
    }
    const yamlText = entryText(fetched, 'stdout');
    editorStore.setState({ text: yamlText, loaded: { ref, namespace: 'default', original: yamlText } });
    setSyntax([]);
    setSent(null);
    setNote(t('notes.editingLive', { ref }));
  };

  const reloadAndRetry = async () => {
    if (!loaded) return;
    setNote(t('notes.reloading', { ref: loaded.ref }));
    const fetched = await commandDone(store, actions.runCommand(`kubectl get ${loaded.ref} -n ${loaded.namespace} -o yaml`, { origin: 'editor' }));
    if (fetched.exitCode !== 0) {
      setNote(entryText(fetched, 'stderr').trim());
      return;
    }
    const fresh = entryText(fetched, 'stdout');
    const { carryEdits } = await loadChecks();
    const merged = carryEdits(loaded.original, text, fresh);
    if (merged === null) {
      setNote(t('notes.cannotCarry'));
      return;
    }
    editorStore.setState({ text: merged, loaded: { ...loaded, original: fresh } });
    setNote(t('notes.retried', { ref: loaded.ref }));
    run('replace', merged);
  };

  const markers = syntax.length > 0 ? syntax : server;
  const output = entry ? entryText(entry) : '';
  return (
    <div className="editor-panel">
      <div className="editor-toolbar" role="toolbar" aria-label={t('actions')}>
        <label>
          {t('preset')}
          <select aria-label={t('preset')} value="" onChange={(e) => {
            const preset = presets.find((p) => p.id === e.target.value);
            if (preset) {
              editorStore.setState({ text: preset.yaml, loaded: null });
              setSyntax([]);
              setSent(null);
              setNote(null);
            }
          }}>
            <option value="" disabled>{t('choose')}</option>
            {presets.map((p) => <option key={p.id} value={p.id}>{p.id === 'blank' ? t('blank') : p.label}</option>)}
          </select>
        </label>
        {(['create', 'apply', 'replace', 'delete'] as const).map((verb) => (
          <button key={verb} type="button" onClick={() => void send(verb)} title={t('verbHint', { verb })}>
            {t(`verbs.${verb}`)}
          </button>
        ))}
        <form className="live-form" aria-label={t('live.form')} onSubmit={(e) => void loadLive(e)}>
          <input aria-label={t('live.object')} value={liveRef} onChange={(e) => setLiveRef(e.target.value)} placeholder="deployment/nginx-deployment" />
          <button type="submit">{t('live.edit')}</button>
        </form>
      </div>
      <div className="editor-body">
        <Suspense fallback={<p className="muted">{t('loading')}</p>}>
          <YamlEditor value={text} onChange={setEditorText} markers={markers} label={t('manifest')} dark={dark} />
        </Suspense>
        <div className="editor-result" aria-live="polite">
          {note && <p data-testid="editor-note">{note}</p>}
          {isConflict(entry) && (
            <div className="conflict" role="alert">
              <strong>409 Conflict:</strong> {t('conflict.text')}
              <button type="button" onClick={() => void reloadAndRetry()} disabled={!loaded}>{t('conflict.retry')}</button>
            </div>
          )}
          {markers.length > 0 && (
            <ul className="problems" data-testid="editor-problems">
              {markers.map((m, i) => <li key={i} data-testid="editor-problem">{t('problem', { line: m.line, column: m.column, message: m.message })}</li>)}
            </ul>
          )}
          {entry && <pre className="command-output" data-testid="editor-output">{`$ ${entry.line}\n${output}${entry.done ? '' : t('undelivered')}`}</pre>}
        </div>
      </div>
    </div>
  );
}

/** Whether the page is drawn dark: the theme chosen, or the system's when it follows the system. */
function useDarkTheme(): boolean {
  const theme = usePrefs((prefs) => prefs.theme);
  const [systemDark, setSystemDark] = useState(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSystemDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return theme === 'dark' || (theme === 'system' && systemDark);
}
