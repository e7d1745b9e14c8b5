import { describe, expect, it } from 'vitest';
import { escapePath } from './url-path.ts';

describe('escapePath (Go url.URL.EscapedPath)', () => {
  it('keeps what Go keeps in a path and escapes the rest per UTF-8 byte', () => {
    expect(escapePath('system:basic-user')).toBe('system:basic-user');
    expect(escapePath('a@b$c&d+e,f;g=h~i_j.k-l')).toBe('a@b$c&d+e,f;g=h~i_j.k-l');
    expect(escapePath('a b?c#d%e')).toBe('a%20b%3Fc%23d%25e');
    expect(escapePath("x!'()*")).toBe('x%21%27%28%29%2A');
    expect(escapePath('é')).toBe('%C3%A9');
  });
});
