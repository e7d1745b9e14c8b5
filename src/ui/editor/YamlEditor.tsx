// CodeMirror 6 with YAML highlighting and lint markers: the part of the editor that is loaded lazily
// (with the `yaml` package), so the first screen does not pay for it. The text is controlled from
// outside (presets, live objects) and reported back on every change; `problems` become diagnostics
// at their line and column.

import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

export interface EditorMarker {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/**
 * CodeMirror's default colours are for a light background; on a dark one each becomes a light colour of
 * the same family (WCAG contrast ≥ 4.5 on the dark surface), and anything not mapped takes the text colour.
 */
const darkColours: Readonly<Record<string, string>> = {
  '#404740': '#c9d1d9', '#708': '#d2a8ff', '#219': '#79c0ff', '#164': '#7ee787', '#a11': '#ffa198', '#e40': '#ffa657',
  '#00f': '#79c0ff', '#30a': '#d2a8ff', '#085': '#56d4bc', '#167': '#56d4bc', '#256': '#a5d6ff', '#00c': '#a5d6ff',
  '#940': '#e3b341', '#f00': '#ff7b72',
};
const darkHighlightStyle = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => (
  spec.color === undefined ? spec : { ...spec, color: darkColours[spec.color] ?? 'var(--text)' })));

function highlighting(dark: boolean) {
  return syntaxHighlighting(dark ? darkHighlightStyle : defaultHighlightStyle, { fallback: true });
}

export interface YamlEditorProps {
  readonly value: string;
  readonly onChange: (text: string) => void;
  readonly markers: readonly EditorMarker[];
  /** The text box's accessible name, in the page's language. */
  readonly label: string;
  /** The page is drawn dark. */
  readonly dark: boolean;
}

function diagnostics(view: EditorView, markers: readonly EditorMarker[]): Diagnostic[] {
  const { doc } = view.state;
  return markers.map((m) => {
    const line = doc.line(Math.min(Math.max(1, m.line), doc.lines));
    const from = Math.min(line.from + Math.max(0, m.column - 1), line.to);
    return { from, to: Math.max(from, line.to), severity: 'error', message: m.message };
  });
}

export default function YamlEditor({ value, onChange, markers, label, dark }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const labelled = useRef(new Compartment());
  const coloured = useRef(new Compartment());
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => { changed.current = onChange; }, [onChange]);

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      doc: value,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), foldGutter(), history(), indentOnInput(), bracketMatching(),
        highlightActiveLine(), coloured.current.of(highlighting(dark)),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]), yaml(), lintGutter(),
        EditorView.updateListener.of((update) => { if (update.docChanged) changed.current(update.state.doc.toString()); }),
        labelled.current.of(EditorView.contentAttributes.of({ 'aria-label': label })),
        // A scrolling region must be reachable from the keyboard: the scroller itself is a tab stop only
        // through its text box, which axe does not count, so the text box says it is one.
        EditorView.contentAttributes.of({ tabindex: '0' }),
      ],
    });
    view.current = editor;
    return () => { editor.destroy(); view.current = null; };
    // The view is created once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: coloured.current.reconfigure(highlighting(dark)) });
  }, [dark]);

  useEffect(() => {
    view.current?.dispatch({ effects: labelled.current.reconfigure(EditorView.contentAttributes.of({ 'aria-label': label })) });
  }, [label]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnostics(editor, markers)));
  }, [markers, value]);

  return <div className="yaml-editor" ref={host} data-testid="yaml-editor" />;
}
