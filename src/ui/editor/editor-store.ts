// The editor's text lives outside the (lazily loaded) editor, so the console's `-f -` can read it and
// a reload keeps it; `loaded` remembers the live object the text was fetched from, for "reload and retry".

import { createStore } from 'zustand/vanilla';
import { nginxDeploymentPreset } from './presets.ts';

export interface LoadedObject {
  /** `deployment/nginx-deployment`, as typed. */
  readonly ref: string;
  readonly namespace: string;
  /** The YAML as fetched (with its resourceVersion). */
  readonly original: string;
}

export interface EditorState {
  readonly text: string;
  readonly loaded: LoadedObject | null;
}

export const editorStore = createStore<EditorState>()(() => ({ text: nginxDeploymentPreset.yaml, loaded: null }));

export function setEditorText(text: string): void {
  editorStore.setState({ text });
}
