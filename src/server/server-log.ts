// The server's command log, `cluster.jsonl` in `--data-dir`: a header line (seed, node count, the epoch
// virtual time 0 stands for), then one line per LogEntry (src/worker/replay.ts, the entry type the
// worker's saved clusters use too): every request, etcd call and cancel that entered the simulation, and
// every command of an attached page, each with the step and virtual instant it entered at. A cluster is its
// seed plus that log; the server replays it on start with the worker's replay (ClusterHost).
//
// JSON has no bytes, so a protobuf request body is written as `{ "base64": … }`. A line cut short by a
// crash can only be the last one: it is dropped (and the file rewritten without it).

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggableCommand } from '../protocol/index.ts';
import type { EtcdClientKind, MessageMap } from '../sim/messages/index.ts';
import type { HttpRequest } from '../sim/wire/http.ts';
import type { LogEntry } from '../worker/replay.ts';

/** An etcd v3 request (a message kind of src/sim/etcd/server.ts and its payload) from client component `client`. */
export interface EtcdCall {
  readonly client: string;
  readonly kind: EtcdClientKind;
  readonly payload: MessageMap[EtcdClientKind];
}

/** What enters the server's cluster: a page's command, or a request, etcd call or cancel of a real client. */
export type ServerCommand =
  | LoggableCommand
  | { readonly type: 'httpRequest'; readonly request: HttpRequest }
  | { readonly type: 'etcdCall'; readonly call: EtcdCall }
  | { readonly type: 'httpCancel'; readonly requestId: number };

export type ServerLogEntry = LogEntry<ServerCommand>;

interface LogHeader {
  readonly podflow: 'server-log';
  readonly seed: string;
  readonly nodes: number;
  /** Absent in logs written before the server started its clock at wall time (the engine's default epoch). */
  readonly epochMs?: number;
}

/** A protobuf request body in the log: base64. */
interface LoggedBytes {
  readonly base64: string;
}

function toLine(entry: ServerLogEntry): string {
  const { command } = entry;
  if (command.type !== 'httpRequest' || !(command.request.body instanceof Uint8Array)) return JSON.stringify(entry);
  const body: LoggedBytes = { base64: Buffer.from(command.request.body).toString('base64') };
  return JSON.stringify({ ...entry, command: { ...command, request: { ...command.request, body } } });
}

function fromLine(line: string): ServerLogEntry {
  const entry = JSON.parse(line) as ServerLogEntry;
  if (typeof entry.step !== 'number' || typeof entry.at !== 'number' || typeof entry.command?.type !== 'string') {
    throw new Error(`not a log entry of this server (an older podflow wrote entries without their step): ${line.slice(0, 120)}`);
  }
  const { command } = entry;
  if (command.type !== 'httpRequest') return entry;
  const body = command.request.body as Partial<LoggedBytes> | string | undefined;
  if (typeof body !== 'object' || typeof body.base64 !== 'string' || Object.keys(body).length !== 1) return entry;
  return { ...entry, command: { ...command, request: { ...command.request, body: new Uint8Array(Buffer.from(body.base64, 'base64')) } } };
}

export class ServerLog {
  private readonly path: string;
  private writing = false;

  constructor(private readonly dataDir: string, private readonly seed: string, private readonly nodes: number) {
    this.path = join(dataDir, 'cluster.jsonl');
  }

  /** The header of the log there when it belongs to this seed and node count, else null. */
  stored(): LogHeader | null {
    if (!existsSync(this.path)) return null;
    const first = readFileSync(this.path, 'utf8').split('\n', 1)[0] ?? '';
    if (first === '') return null;
    const header = JSON.parse(first) as LogHeader;
    return header.seed === this.seed && header.nodes === this.nodes ? header : null;
  }

  /** The entries of the stored log (a last line cut short by a crash is dropped from the file). */
  entries(): ServerLogEntry[] {
    const lines = readFileSync(this.path, 'utf8').split('\n').filter((l) => l !== '');
    const lineEntries = lines.slice(1);
    const entries: ServerLogEntry[] = [];
    for (const [i, line] of lineEntries.entries()) {
      try {
        entries.push(fromLine(line));
      } catch (err) {
        if (i !== lineEntries.length - 1 || !(err instanceof SyntaxError)) throw err;
        writeFileSync(this.path, `${[lines[0], ...lineEntries.slice(0, i)].join('\n')}\n`);
      }
    }
    return entries;
  }

  /** Starts a new log (the stored one, if any, belongs to another seed or node count). */
  begin(epochMs: number): void {
    mkdirSync(this.dataDir, { recursive: true });
    const header: LogHeader = { podflow: 'server-log', seed: this.seed, nodes: this.nodes, epochMs };
    writeFileSync(this.path, `${JSON.stringify(header)}\n`);
  }

  /** From now on `append` writes (not while the stored log is replayed). */
  open(): void {
    this.writing = true;
  }

  append(entry: ServerLogEntry): void {
    if (this.writing) appendFileSync(this.path, `${toLine(entry)}\n`);
  }
}
