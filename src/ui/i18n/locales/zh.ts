// Every namespace's 中文 texts, one chunk the page fetches when it shows 中文 (../index.ts).

import { byNamespace } from './by-namespace.ts';

export const texts = byNamespace(import.meta.glob<Record<string, unknown>>('./zh/*.json', { eager: true, import: 'default' }));
