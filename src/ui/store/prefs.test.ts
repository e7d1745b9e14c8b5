import { describe, expect, it } from 'vitest';
import { createPrefsStore, languageFor } from './prefs.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

describe('UI preferences', () => {
  it('default to English and keep the chosen language across stores (page loads)', () => {
    const storage = memoryStorage();
    const first = createPrefsStore(storage);
    expect(first.getState().language).toBe('en');
    first.getState().setLanguage('zh');
    expect(createPrefsStore(storage).getState().language).toBe('zh');
  });

  it('start in the browser\'s language: 中文 when Chinese comes before English, else English; a choice outlives it', () => {
    expect(languageFor(['zh-CN', 'zh', 'en'])).toBe('zh');
    expect(languageFor(['zh-TW'])).toBe('zh');
    expect(languageFor(['en-US', 'zh-CN'])).toBe('en');
    expect(languageFor(['fr-FR', 'ZH-hans', 'en'])).toBe('zh');
    expect(languageFor(['de-DE'])).toBe('en');
    expect(languageFor([])).toBe('en');
    const storage = memoryStorage();
    const chinese = createPrefsStore(storage, ['zh-CN']);
    expect(chinese.getState().language).toBe('zh');
    chinese.getState().setLanguage('en');
    expect(createPrefsStore(storage, ['zh-CN']).getState().language).toBe('en');
  });

  it('remember the level Step works at; default Story (milestones); an unknown stored level falls back', () => {
    const storage = memoryStorage();
    const first = createPrefsStore(storage);
    expect(first.getState().level).toBe('milestone');
    first.getState().setLevel('request');
    expect(createPrefsStore(storage).getState().level).toBe('request');
    storage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'zh', theme: 'dark', level: 'chapter' }, version: 1 }));
    const odd = createPrefsStore(storage).getState();
    expect(odd.level).toBe('milestone');
    expect(odd.language).toBe('zh');
  });
});
