// One language's texts as i18next holds them: namespace → keys, from that language's JSON files
// (`./<language>/<namespace>.json`) as Vite's glob import hands them over.

import type { ResourceLanguage } from 'i18next';

export function byNamespace(files: Record<string, Record<string, unknown>>): ResourceLanguage {
  const texts: Record<string, ResourceLanguage[string]> = {};
  for (const [path, bundle] of Object.entries(files)) texts[path.replace(/^.*\/([^/]+)\.json$/, '$1')] = bundle as ResourceLanguage[string];
  return texts;
}
