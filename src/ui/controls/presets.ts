// Manifests the seeds teach with, offered as one-click starting points by the kubectl create form: the
// seeds/000 nginx Deployment, the same text as the YAML editor's preset.

import { nginxDeploymentPreset, type EditorPreset } from '../editor/presets.ts';

export type ManifestPreset = EditorPreset;

export const manifestPresets: readonly ManifestPreset[] = [nginxDeploymentPreset];
