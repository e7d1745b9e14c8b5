// Every namespace speaks both languages: the same keys in English and 中文, no empty text, and the same
// {{placeholders}} on both sides (a missing one would print a raw name on the page). Each language is a
// chunk of its own, loaded when shown.

import { describe, expect, it } from 'vitest';
import { prefsStore } from '../store/prefs.ts';
import { i18n, languageTexts, loadLanguage, namespaces, showLanguage } from './index.ts';

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

const resources = { en: await languageTexts('en'), zh: await languageTexts('zh') };

describe('translations', () => {
  it('has the same namespaces, common among them, in both languages', () => {
    expect(namespaces).toContain('common');
    expect(Object.keys(resources.zh).sort()).toEqual(Object.keys(resources.en).sort());
    expect([...namespaces].sort()).toEqual(Object.keys(resources.en).sort());
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
  it('loads a language when first shown, then switches the preference and the words together', async () => {
    prefsStore.getState().setLanguage('en');
    await showLanguage('zh');
    expect(prefsStore.getState().language).toBe('zh');
    expect(i18n.language).toBe('zh');
    expect(i18n.t('common:tagline')).toMatch(/[\u4e00-\u9fff]/);
    await showLanguage('en');
    expect(i18n.language).toBe('en');
    expect(i18n.t('common:tagline')).toMatch(/^Watch Kubernetes/);
  });
  it('follows the language preference', async () => {
    await loadLanguage('zh');
    await i18n.changeLanguage('zh');
    expect(i18n.t('common:tagline')).toMatch(/[\u4e00-\u9fff]/);
    await i18n.changeLanguage('en');
    expect(i18n.t('common:tagline')).toMatch(/^Watch Kubernetes/);
  });
});
