// Every namespace speaks both languages: the same keys in English and 中文, no empty text, and the same
// {{placeholders}} on both sides (a missing one would print a raw name on the page).

import { describe, expect, it } from 'vitest';
import { bundledResources, i18n, namespaces } from './index.ts';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const resources = bundledResources();
  it('has the common namespace in both languages', () => {
    expect(namespaces).toContain('common');
    expect(Object.keys(resources).sort()).toEqual(['en', 'zh']);
  });
  for (const namespace of namespaces) {
    it(`${namespace}: the same keys and placeholders in English and 中文, none empty`, () => {
      const en = leaves((resources.en?.[namespace] ?? {}) as Tree);
      const zh = leaves((resources.zh?.[namespace] ?? {}) as Tree);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, text] of en) {
        expect(text.trim(), `${namespace}:${key} (en)`).not.toBe('');
        expect(zh.get(key)!.trim(), `${namespace}:${key} (zh)`).not.toBe('');
        expect(placeholders(zh.get(key)!), `${namespace}:${key}`).toEqual(placeholders(text));
      }
    });
  }
  it('follows the language preference', async () => {
    await i18n.changeLanguage('zh');
    expect(i18n.t('common:tagline')).toMatch(/[\u4e00-\u9fff]/);
    await i18n.changeLanguage('en');
    expect(i18n.t('common:tagline')).toMatch(/^Watch Kubernetes/);
  });
});
