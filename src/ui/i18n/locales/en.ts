// Every namespace's English texts, one chunk the page fetches when it shows English (../index.ts).

import { byNamespace } from './by-namespace.ts';

export const texts = byNamespace(import.meta.glob<Record<string, unknown>>('./en/*.json', { eager: true, import: 'default' }));
