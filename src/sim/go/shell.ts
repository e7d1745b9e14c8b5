// The word splitting a POSIX shell applies to a console line before etcdctl, kubectl or crane see argv
// (the console's commands are typed as in a terminal).

/** Splits a command line like a shell: whitespace-separated, with '…' and "…" quoting. */
export function splitArgs(line: string): string[] {
  const args: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of line) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) args.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
    }
  }
  if (has || cur) args.push(cur);
  return args;
}
