import { describe, expect, it } from 'vitest';
import { createPrefsStore } from './prefs.ts';

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
});
