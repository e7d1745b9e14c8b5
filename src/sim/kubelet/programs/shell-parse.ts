// The small shell's words and grammar: sh's simple quoting, and a script parsed into a list of commands
// joined by `;`, `&&`, `||`, with `while …; do …; done` and `for x in …; do …; done` loops.

/** Splits a shell word list as sh does for simple quoting ('…', "…", \x). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      cur += text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        cur += text[j];
        j++;
      }
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** A parsed shell list: commands joined by `;`, `&&`, `||`, and loops. */
export type ShellNode =
  | { readonly kind: 'simple'; readonly words: string[] }
  | { readonly kind: 'while'; readonly cond: ShellNode[]; readonly body: ShellNode[] }
  | { readonly kind: 'for'; readonly name: string; readonly items: string[]; readonly body: ShellNode[] }
  | { readonly kind: 'op'; readonly op: '&&' | '||' };

/** Splits a script into tokens: words (with quotes kept) and the operators `;`, `&&`, `||`, newline. */
export function tokenize(script: string): string[] {
  const tokens: string[] = [];
  let cur = '';
  const flush = () => {
    if (cur.trim() !== '') tokens.push(cur.trim());
    cur = '';
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === "'" || c === '"') {
      const end = script.indexOf(c, i + 1);
      const stop = end < 0 ? script.length : end;
      cur += script.slice(i, stop + 1);
      i = stop;
    } else if (c === ';' || c === '\n') {
      flush();
      tokens.push(';');
    } else if ((c === '&' || c === '|') && script[i + 1] === c) {
      flush();
      tokens.push(c + c);
      i++;
    } else cur += c;
  }
  flush();
  return tokens;
}

/** Parses tokens until one of `stops` (a keyword starting a command); returns the nodes and where it stopped. */
export function parseList(tokens: string[], at: number, stops: readonly string[]): { nodes: ShellNode[]; at: number; stop: string | null } {
  const nodes: ShellNode[] = [];
  let i = at;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t === ';') { i++; continue; }
    if (t === '&&' || t === '||') { nodes.push({ kind: 'op', op: t }); i++; continue; }
    const words = shellWords(t);
    const first = words[0] ?? '';
    if (stops.includes(first)) {
      // `do cmd`, `done` may share a token with the command after them.
      const rest = words.slice(1);
      tokens[i] = rest.map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(' ');
      if (rest.length === 0) i++;
      return { nodes, at: i, stop: first };
    }
    if (first === 'while' || first === 'until') {
      tokens[i] = words.slice(1).map((w) => (/\s/.test(w) ? `'${w}'` : w)).join(' ');
      const cond = parseList(tokens, words.length > 1 ? i : i + 1, ['do']);
      const body = parseList(tokens, cond.at, ['done']);
      nodes.push({ kind: 'while', cond: first === 'until' ? [{ kind: 'simple', words: ['!'] }, ...cond.nodes] : cond.nodes, body: body.nodes });
      i = body.at;
      continue;
    }
    if (first === 'for' && words[2] === 'in') {
      const items = words.slice(3);
      const body = parseList(tokens, i + 1, ['done']);
      const doAt = body.nodes;
      // `do` begins the body: drop it from the first command.
      const bodyNodes = doAt.map((n, k) => (k === 0 && n.kind === 'simple' && n.words[0] === 'do' ? { kind: 'simple' as const, words: n.words.slice(1) } : n));
      nodes.push({ kind: 'for', name: words[1]!, items, body: bodyNodes });
      i = body.at;
      continue;
    }
    nodes.push({ kind: 'simple', words });
    i++;
  }
  return { nodes, at: i, stop: null };
}
