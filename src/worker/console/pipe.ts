// The shell's pipe after a console command, as the seeds type it (`kubectl get pod|grep my-replicaset`):
// the command's stdout goes through `grep`, `head` or `wc -l`, line by line as it is printed (a watch is
// filtered as it streams); stderr is not piped. The line's exit status is the last filter's, as a shell's
// (grep: 1 when no line matched). Only these filters are modelled; the rest of a shell is not.

import { splitArgs } from '../../sim/go/shell.ts';

/** One stage after a `|`: it takes whole lines and gives the lines it prints. */
interface Filter {
  line(text: string): readonly string[];
  /** What it prints when its input ends. */
  end(): readonly string[];
  readonly exitCode: number;
}

export interface Pipeline {
  /** The command before the first `|`. */
  readonly command: string;
  /** Null when the line has no pipe. */
  readonly pipe: Pipe | null;
}

/** Splits `line` at unquoted `|`; an error text (as bash prints it) when a stage is empty or unknown. */
export function parsePipeline(line: string): Pipeline | { readonly error: string; readonly exitCode: number } {
  const stages = splitStages(line);
  if (stages.length === 1) return { command: line, pipe: null };
  if (stages.some((s) => s.trim() === '')) return { error: 'bash: syntax error near unexpected token `|\'\n', exitCode: 2 };
  const filters: Filter[] = [];
  for (const stage of stages.slice(1)) {
    const filter = parseFilter(stage.trim());
    if (typeof filter === 'string') return { error: filter, exitCode: filter.includes('command not found') ? 127 : 2 };
    filters.push(filter);
  }
  return { command: stages[0]!.trim(), pipe: new Pipe(filters) };
}

/** The filters after a command: text in as printed, text out as the last filter prints it. */
export class Pipe {
  private partial = '';

  constructor(private readonly filters: readonly Filter[]) {}

  write(text: string): string {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    return lines.map((l) => this.through(l, 0)).join('');
  }

  /** The input ended: the last partial line, then each filter's end, in order. */
  end(): { readonly text: string; readonly exitCode: number } {
    let out = this.partial === '' ? '' : this.through(this.partial, 0);
    this.partial = '';
    for (const [i, filter] of this.filters.entries()) {
      for (const line of filter.end()) out += this.through(line, i + 1);
    }
    return { text: out, exitCode: this.filters.at(-1)!.exitCode };
  }

  /** Runs `line` through the filters from index `from` on. */
  private through(line: string, from: number): string {
    let lines: readonly string[] = [line];
    for (const filter of this.filters.slice(from)) lines = lines.flatMap((l) => filter.line(l));
    return lines.map((l) => `${l}\n`).join('');
  }
}

function splitStages(line: string): string[] {
  const stages: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of line) {
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '|') {
      stages.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  stages.push(current);
  return stages;
}

function parseFilter(stage: string): Filter | string {
  const words = splitArgs(stage);
  const [tool, ...args] = words;
  switch (tool) {
    case 'grep': return grep(args);
    case 'head': return head(args);
    case 'wc':
      if (args.length === 1 && args[0] === '-l') return wc();
      return 'wc: only `wc -l` is modelled after a pipe in this console\n';
    default:
      return `${tool}: command not found (after | this console runs grep, head and wc -l)\n`;
  }
}

// Models GNU grep's options -v, -i, -c, -E, -F, -w and its basic regular expressions.
function grep(args: readonly string[]): Filter | string {
  let invert = false, ignoreCase = false, count = false, extended = false, fixed = false, word = false;
  let pattern: string | null = null;
  for (const arg of args) {
    if (pattern === null && /^-[a-zA-Z]+$/.test(arg)) {
      for (const flag of arg.slice(1)) {
        if (flag === 'v') invert = true;
        else if (flag === 'i') ignoreCase = true;
        else if (flag === 'c') count = true;
        else if (flag === 'E') extended = true;
        else if (flag === 'F') fixed = true;
        else if (flag === 'w') word = true;
        else return `grep: invalid option -- '${flag}' (this console models -v, -i, -c, -E, -F and -w)\n`;
      }
    } else if (pattern === null) {
      pattern = arg;
    } else {
      return 'grep: reading files is not modelled after a pipe in this console\n';
    }
  }
  if (pattern === null) return 'Usage: grep [OPTION]... PATTERNS [FILE]...\nTry \'grep --help\' for more information.\n';
  let source = fixed ? escapeRegExp(pattern) : extended ? pattern : basicToJs(pattern);
  if (word) source = `(?<![\\w])(?:${source})(?![\\w])`;
  let regex: RegExp;
  try {
    regex = new RegExp(source, ignoreCase ? 'i' : '');
  } catch {
    return `grep: Invalid regular expression\n`;
  }
  let matched = 0;
  return {
    line(text) {
      if (regex.test(text) === invert) return [];
      matched++;
      return count ? [] : [text];
    },
    end: () => (count ? [String(matched)] : []),
    get exitCode() { return matched > 0 ? 0 : 1; },
  };
}

/** A POSIX basic regular expression as a JavaScript one: `+ ? | ( ) { }` are literal unless escaped. */
function basicToJs(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      out += '+?|(){}'.includes(next) ? next : `\\${next}`;
    } else {
      out += '+?|(){}'.includes(ch) ? `\\${ch}` : ch;
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function head(args: readonly string[]): Filter | string {
  let limit = 10;
  if (args.length === 1 && /^-\d+$/.test(args[0]!)) limit = Number(args[0]!.slice(1));
  else if (args.length === 2 && args[0] === '-n' && /^\d+$/.test(args[1]!)) limit = Number(args[1]);
  else if (args.length > 0) return 'head: only `head`, `head -N` and `head -n N` are modelled after a pipe in this console\n';
  let seen = 0;
  return {
    line: (text) => (seen++ < limit ? [text] : []),
    end: () => [],
    exitCode: 0,
  };
}

function wc(): Filter {
  let lines = 0;
  return {
    line: () => {
      lines++;
      return [];
    },
    end: () => [String(lines)],
    exitCode: 0,
  };
}
