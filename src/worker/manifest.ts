// Parses the YAML a user applies (`kubectl apply -f`): one or more documents, each a Kubernetes object.
// Only the shape every object shares is checked here (a mapping with apiVersion, kind and metadata.name);
// defaulting and validation belong to kube-apiserver.

import { parseAllDocuments } from 'yaml';
import { isObject } from '../sim/api/json.ts';

export interface ManifestObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | null;
  /** The document as plain data. */
  readonly object: Readonly<Record<string, unknown>>;
}

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

export function parseManifest(text: string): ManifestObject[] {
  const objects: ManifestObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const where = `document ${i + 1}`;
    const [yamlError] = doc.errors;
    if (yamlError) throw new ManifestError(`${where}: ${yamlError.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    if (!isObject(value)) throw new ManifestError(`${where}: expected a mapping (a Kubernetes object)`);
    const metadata = isObject(value.metadata) ? value.metadata : {};
    const { apiVersion, kind } = value;
    const { name, namespace } = metadata;
    if (typeof apiVersion !== 'string' || apiVersion === '') throw new ManifestError(`${where}: apiVersion not set`);
    if (typeof kind !== 'string' || kind === '') throw new ManifestError(`${where}: kind not set`);
    if (typeof name !== 'string' || name === '') throw new ManifestError(`${where}: ${kind} has no metadata.name`);
    objects.push({ apiVersion, kind, name, namespace: typeof namespace === 'string' ? namespace : null, object: value });
  });
  if (objects.length === 0) throw new ManifestError('no objects in the manifest');
  return objects;
}
