// An etcdctl (3.4) view of the simulated etcd: parses an etcdctl command line into the request it
// sends, and renders the reply as etcdctl prints it (simple or `-w json`). Commands: get, put, del,
// watch, compaction, lease grant/revoke/timetolive/list/keep-alive --once. Lease IDs are hex on the
// command line and in simple output, as etcdctl has them.
// Models etcdctl/ctlv3/command (get_command.go, put_command.go, del_command.go, watch_command.go,
// compaction_command.go, lease_command.go, printer_simple.go, printer_json.go) and clientv3's
// option handling (WithPrefix, WithFromKey, WithSort). The JSON printer is Go's encoding/json over the
// response structs: int64 and uint64 as numbers, bytes as base64, `omitempty` on proto fields.

import { base64Encode, byteStringToUtf8, prefixEnd, terminalText, utf8ToByteString } from './bytes.ts';
import type { Event, KeyValue } from './kv.ts';
import type {
  CompactionRequest, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantResponse, LeaseKeepAliveResponse,
  LeaseLeasesResponse, LeaseTimeToLiveResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, ResponseHeader,
  SortOrder, SortTarget, WatchCreateRequest, WatchResponse,
} from './rpc.ts';
import type { EtcdReply } from './server.ts';
import { splitArgs } from '../go/shell.ts';
import type { EtcdRequestKind, MessageMap } from '../messages/index.ts';

export type OutputFormat = 'simple' | 'json';

export type EtcdctlCommand =
  | {
    readonly type: 'unary';
    readonly command: 'get' | 'put' | 'del' | 'compaction' | 'lease grant' | 'lease revoke' | 'lease timetolive' | 'lease list' | 'lease keep-alive';
    /** The message kind to send to the EtcdServer, and its payload. */
    readonly kind: EtcdRequestKind;
    readonly request: MessageMap[EtcdRequestKind];
    readonly format: OutputFormat;
    readonly printValueOnly: boolean;
    readonly keys: boolean;
  }
  | { readonly type: 'watch'; readonly request: WatchCreateRequest; readonly format: OutputFormat }
  | { readonly type: 'error'; readonly stderr: string; readonly exitCode: number };

export interface EtcdctlOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

const hexToDecimal = (hex: string): string | null => (/^[0-9a-fA-F]+$/.test(hex) ? BigInt(`0x${hex}`).toString() : null);
const leaseHex = (id: string): string => BigInt.asUintN(64, BigInt(id)).toString(16).padStart(16, '0');

interface Flags {
  readonly positional: string[];
  readonly values: Map<string, string>;
  readonly bools: Set<string>;
}

const valueFlags = new Set(['rev', 'limit', 'lease', 'w', 'write-out', 'sort-by', 'order', 'consistency', 'endpoints', 'command-timeout']);

function parseFlags(args: string[]): Flags | string {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    if (valueFlags.has(name)) {
      const v = eq >= 0 ? body.slice(eq + 1) : args[++i];
      if (v === undefined) return `flag needs an argument: ${a}`;
      values.set(name === 'w' ? 'write-out' : name, v);
    } else if (['prefix', 'from-key', 'keys-only', 'prev-kv', 'print-value-only', 'ignore-value', 'ignore-lease', 'physical', 'keys', 'once', 'hex'].includes(name)) {
      bools.add(name);
    } else {
      return `unknown flag: ${a}`;
    }
  }
  return { positional, values, bools };
}

/** etcdctl exit codes: ExitError 1, ExitBadConnection 2, ExitBadFeature 4, ExitBadArgs 128. */
/**
 * The key range of `get` and `del`: the key and optional range end given, or with --prefix every key
 * under the key (every key when it is empty), or with --from-key every key from it.
 */
function keyRange(args: readonly string[], bools: ReadonlySet<string>): { key: string; rangeEnd: string | undefined } {
  let key = args[0]!;
  let rangeEnd = args[1];
  if (bools.has('prefix')) {
    if (key === '') {
      key = '\0';
      rangeEnd = '\0';
    } else rangeEnd = prefixEnd(key);
  }
  if (bools.has('from-key')) {
    if (key === '') key = '\0';
    rangeEnd = '\0';
  }
  return { key, rangeEnd };
}

const err = (message: string, exitCode = 128): EtcdctlCommand => ({ type: 'error', stderr: `Error: ${message}\n`, exitCode });

/** Parses `etcdctl <command> …` (the leading `etcdctl` is optional). */
export function parseEtcdctl(line: string | string[]): EtcdctlCommand {
  const argv = typeof line === 'string' ? splitArgs(line) : [...line];
  if (argv[0] === 'etcdctl') argv.shift();
  const parsed = parseFlags(argv);
  if (typeof parsed === 'string') return err(parsed, 1);
  const { positional, values, bools } = parsed;
  const format = values.get('write-out') ?? 'simple';
  if (format !== 'simple' && format !== 'json') return err(`unsupported output format ${format} in the simulation`, 4);
  // Keys and values on the command line are text; etcd holds their UTF-8 bytes.
  const [command, ...textArgs] = positional;
  const args = textArgs.map(utf8ToByteString);
  const common = { format: format as OutputFormat, printValueOnly: bools.has('print-value-only'), keys: bools.has('keys') };
  const int = (name: string): number | null | 'bad' => {
    const v = values.get(name);
    if (v === undefined) return null;
    return /^-?\d+$/.test(v) ? Number(v) : 'bad';
  };
  switch (command) {
    case 'get': {
      if (args.length === 0) return err('get command needs one argument as key and an optional argument as range_end');
      if (bools.has('prefix') && bools.has('from-key')) return err('`--prefix` and `--from-key` cannot be set at the same time, choose one');
      if (args.length > 1 && (bools.has('prefix') || bools.has('from-key'))) return err('too many arguments, only accept one argument when `--prefix` or `--from-key` is set');
      const rev = int('rev');
      const limit = int('limit');
      if (rev === 'bad' || limit === 'bad') return err('invalid argument');
      const { key, rangeEnd } = keyRange(args, bools);
      const order = (values.get('order') ?? '').toUpperCase();
      const target = (values.get('sort-by') ?? '').toUpperCase();
      if (order && !['ASCEND', 'DESCEND'].includes(order)) return err(`bad sort order ${values.get('order')}`, 4);
      const targets: Record<string, SortTarget> = { CREATE: 'CREATE', KEY: 'KEY', MODIFY: 'MOD', VALUE: 'VALUE', VERSION: 'VERSION' };
      if (target && !targets[target]) return err(`bad sort target ${values.get('sort-by')}`, 4);
      const sortTarget = target ? targets[target]! : 'KEY';
      let sortOrder: SortOrder = order === 'ASCEND' ? 'ASCEND' : order === 'DESCEND' ? 'DESCEND' : 'NONE';
      if (sortTarget === 'KEY' && sortOrder === 'ASCEND') sortOrder = 'NONE';
      const request: RangeRequest = {
        key, ...(rangeEnd !== undefined ? { rangeEnd } : {}), ...(limit ? { limit } : {}), ...(rev && rev > 0 ? { revision: rev } : {}),
        ...(sortOrder !== 'NONE' ? { sortOrder } : {}), ...(sortTarget !== 'KEY' ? { sortTarget } : {}),
        ...(values.get('consistency') === 's' ? { serializable: true } : {}), ...(bools.has('keys-only') ? { keysOnly: true } : {}),
      };
      return { type: 'unary', command: 'get', kind: 'etcd.Range', request, ...common };
    }
    case 'put': {
      if (args.length === 0) return err('put command needs 1 argument and input from stdin or 2 arguments');
      const key = args[0]!;
      const value = args[1] ?? '';
      if (args.length < 2 && !bools.has('ignore-value')) return err('put command needs 1 argument and input from stdin or 2 arguments');
      let lease: string | undefined;
      if (values.has('lease')) {
        const id = hexToDecimal(values.get('lease')!);
        if (id === null) return err(`bad lease ID (${values.get('lease')}), expecting ID in Hex`);
        lease = id;
      }
      const request: PutRequest = {
        key, ...(value ? { value } : {}), ...(lease && lease !== '0' ? { lease } : {}), ...(bools.has('prev-kv') ? { prevKv: true } : {}),
        ...(bools.has('ignore-value') ? { ignoreValue: true } : {}), ...(bools.has('ignore-lease') ? { ignoreLease: true } : {}),
      };
      return { type: 'unary', command: 'put', kind: 'etcd.Put', request, ...common };
    }
    case 'del': {
      if (args.length === 0 || args.length > 2) return err('del command needs one argument as key and an optional argument as range_end');
      const { key, rangeEnd } = keyRange(args, bools);
      const request: DeleteRangeRequest = { key, ...(rangeEnd !== undefined ? { rangeEnd } : {}), ...(bools.has('prev-kv') ? { prevKv: true } : {}) };
      return { type: 'unary', command: 'del', kind: 'etcd.DeleteRange', request, ...common };
    }
    case 'watch': {
      if (args.length === 0) return err('watch in non-interactive mode requires one or two arguments as key or prefix, with range end');
      const rev = int('rev');
      if (rev === 'bad') return err('invalid argument');
      let key = args[0]!;
      let rangeEnd = args[1];
      if (bools.has('prefix')) rangeEnd = key === '' ? '\0' : prefixEnd(key);
      if (key === '' && bools.has('prefix')) key = '\0';
      const request: WatchCreateRequest = {
        key, ...(rangeEnd !== undefined ? { rangeEnd } : {}), ...(rev ? { startRevision: rev } : {}), ...(bools.has('prev-kv') ? { prevKv: true } : {}),
      };
      return { type: 'watch', request, format: common.format };
    }
    case 'compaction': {
      if (args.length !== 1) return err('compaction command needs 1 argument');
      if (!/^-?\d+$/.test(args[0]!)) return err(`strconv.ParseInt: parsing "${args[0]}": invalid syntax`);
      const request: CompactionRequest = { revision: Number(args[0]), ...(bools.has('physical') ? { physical: true } : {}) };
      return { type: 'unary', command: 'compaction', kind: 'etcd.Compact', request, ...common };
    }
    case 'lease': {
      const [sub, arg] = args;
      const id = arg === undefined ? null : hexToDecimal(arg);
      switch (sub) {
        case 'grant':
          if (arg === undefined || !/^\d+$/.test(arg)) return err('lease grant command needs TTL argument');
          return { type: 'unary', command: 'lease grant', kind: 'etcd.LeaseGrant', request: { TTL: Number(arg) }, ...common };
        case 'revoke':
          if (id === null) return err('lease revoke command needs 1 argument');
          return { type: 'unary', command: 'lease revoke', kind: 'etcd.LeaseRevoke', request: { ID: id }, ...common };
        case 'timetolive':
          if (id === null) return err('lease timetolive command needs lease ID as argument');
          return { type: 'unary', command: 'lease timetolive', kind: 'etcd.LeaseTimeToLive', request: { ID: id, ...(common.keys ? { keys: true } : {}) }, ...common };
        case 'list':
          return { type: 'unary', command: 'lease list', kind: 'etcd.LeaseLeases', request: {}, ...common };
        case 'keep-alive':
          if (id === null) return err('lease keep-alive command needs lease ID as argument');
          if (!bools.has('once')) return err('only `lease keep-alive --once` is supported in the simulation');
          return { type: 'unary', command: 'lease keep-alive', kind: 'etcd.LeaseKeepAlive', request: { ID: id }, ...common };
        default:
          return err(`unknown command "${sub ?? ''}" for "etcdctl lease"`, 1);
      }
    }
    default:
      return err(`unknown command "${command ?? ''}" for "etcdctl"`, 1);
  }
}

// Go encoding/json over the response structs.

type GoJson = string;
const num = (name: string, v: number | string, omitEmpty = true): GoJson | null => (omitEmpty && (v === 0 || v === '0') ? null : `"${name}":${v}`);
const obj = (fields: Array<GoJson | null>): GoJson => `{${fields.filter((f) => f !== null).join(',')}}`;

function headerFields(h: ResponseHeader): Array<GoJson | null> {
  return [num('cluster_id', h.clusterId), num('member_id', h.memberId), num('revision', h.revision), num('raft_term', h.raftTerm)];
}

function kvJson(kv: KeyValue): GoJson {
  return obj([
    kv.key ? `"key":"${base64Encode(kv.key)}"` : null, num('create_revision', kv.createRevision), num('mod_revision', kv.modRevision),
    num('version', kv.version), kv.value ? `"value":"${base64Encode(kv.value)}"` : null, num('lease', kv.lease),
  ]);
}

const list = (name: string, items: GoJson[]): GoJson | null => (items.length ? `"${name}":[${items.join(',')}]` : null);

function eventJson(e: Event): GoJson {
  return obj([e.type === 'DELETE' ? '"type":1' : null, `"kv":${kvJson(e.kv)}`, e.prevKv ? `"prev_kv":${kvJson(e.prevKv)}` : null]);
}

function jsonOf(command: string, resp: unknown): GoJson {
  switch (command) {
    case 'get': {
      const r = resp as RangeResponse;
      return obj([`"header":${obj(headerFields(r.header))}`, list('kvs', r.kvs.map(kvJson)), r.more ? '"more":true' : null, num('count', r.count)]);
    }
    case 'put': {
      const r = resp as PutResponse;
      return obj([`"header":${obj(headerFields(r.header))}`, r.prevKv ? `"prev_kv":${kvJson(r.prevKv)}` : null]);
    }
    case 'del': {
      const r = resp as DeleteRangeResponse;
      return obj([`"header":${obj(headerFields(r.header))}`, num('deleted', r.deleted), list('prev_kvs', r.prevKvs.map(kvJson))]);
    }
    case 'lease grant': {
      const r = resp as LeaseGrantResponse;
      return obj([...headerFields(r.header), num('ID', r.ID, false), num('TTL', r.TTL, false), `"Error":${JSON.stringify(r.error)}`]);
    }
    case 'lease revoke':
      return obj([`"header":${obj(headerFields((resp as { header: ResponseHeader }).header))}`]);
    case 'lease timetolive': {
      const r = resp as LeaseTimeToLiveResponse;
      const keys = r.keys.length ? `[${r.keys.map((k) => `"${base64Encode(k)}"`).join(',')}]` : 'null';
      return obj([...headerFields(r.header), num('id', r.ID, false), num('ttl', r.TTL, false), num('granted-ttl', r.grantedTTL, false), `"keys":${keys}`]);
    }
    case 'lease list': {
      const r = resp as LeaseLeasesResponse;
      return obj([...headerFields(r.header), `"leases":${r.leases.length ? `[${r.leases.map((l) => `{"id":${l.ID}}`).join(',')}]` : 'null'}`]);
    }
    case 'lease keep-alive': {
      const r = resp as LeaseKeepAliveResponse;
      return obj([...headerFields(r.header), num('ID', r.ID, false), num('TTL', r.TTL, false)]);
    }
    default:
      return '';
  }
}

function kvLines(kv: KeyValue, valueOnly: boolean): string {
  const value = terminalText(kv.value);
  return valueOnly ? `${value}\n` : `${terminalText(kv.key)}\n${value}\n`;
}

function simpleOf(command: string, resp: unknown, request: unknown, valueOnly: boolean, keys: boolean): string {
  switch (command) {
    case 'get':
      return (resp as RangeResponse).kvs.map((kv) => kvLines(kv, valueOnly)).join('');
    case 'put': {
      const r = resp as PutResponse;
      return `OK\n${r.prevKv ? kvLines(r.prevKv, valueOnly) : ''}`;
    }
    case 'del': {
      const r = resp as DeleteRangeResponse;
      return `${r.deleted}\n${r.prevKvs.map((kv) => kvLines(kv, valueOnly)).join('')}`;
    }
    case 'compaction':
      return `compacted revision ${(request as CompactionRequest).revision}\n`;
    case 'lease grant': {
      const r = resp as LeaseGrantResponse;
      return `lease ${leaseHex(r.ID)} granted with TTL(${r.TTL}s)\n`;
    }
    case 'lease revoke':
      return `lease ${leaseHex((request as { ID: string }).ID)} revoked\n`;
    case 'lease timetolive': {
      const r = resp as LeaseTimeToLiveResponse;
      if (r.grantedTTL === 0 && r.TTL === -1) return `lease ${leaseHex(r.ID)} already expired\n`;
      let txt = `lease ${leaseHex(r.ID)} granted with TTL(${r.grantedTTL}s), remaining(${r.TTL}s)`;
      if (keys) txt += `, attached keys([${r.keys.map(byteStringToUtf8).join(' ')}])`;
      return `${txt}\n`;
    }
    case 'lease list': {
      const r = resp as LeaseLeasesResponse;
      return `found ${r.leases.length} leases\n${r.leases.map((l) => `${leaseHex(l.ID)}\n`).join('')}`;
    }
    case 'lease keep-alive': {
      const r = resp as LeaseKeepAliveResponse;
      return `lease ${leaseHex(r.ID)} keepalived with TTL(${r.TTL})\n`;
    }
    default:
      return '';
  }
}

/** What etcdctl prints for a unary command's reply. */
export function renderReply(cmd: Extract<EtcdctlCommand, { type: 'unary' }>, reply: EtcdReply<unknown>): EtcdctlOutput {
  if (!reply.ok) {
    // rpctypes.Error turns etcd's own errors into their text; any other error prints as gRPC's status.
    const e = reply.error;
    const text = /^(etcdserver|mvcc): /.test(e.message) ? e.message : `rpc error: code = ${e.codeName} desc = ${e.message}`;
    const message = cmd.command === 'lease revoke' ? `failed to revoke lease (${text})` : text;
    return { stdout: '', stderr: `Error: ${message}\n`, exitCode: 1 };
  }
  // clientv3 KeepAliveOnce turns a TTL ≤ 0 (unknown lease) into ErrLeaseNotFound; etcdctl exits with
  // ExitBadConnection.
  if (cmd.command === 'lease keep-alive' && (reply.response as LeaseKeepAliveResponse).TTL <= 0) {
    return { stdout: '', stderr: 'Error: etcdserver: requested lease not found\n', exitCode: 2 };
  }
  if (cmd.format === 'json' && cmd.command !== 'compaction') return { stdout: `${jsonOf(cmd.command, reply.response)}\n`, stderr: '', exitCode: 0 };
  return { stdout: simpleOf(cmd.command, reply.response, cmd.request, cmd.printValueOnly, cmd.keys), stderr: '', exitCode: 0 };
}

/**
 * What `etcdctl watch` prints for one watch response: its events (nothing for created and progress
 * responses); a cancellation ends the watch (exitCode set).
 */
export function renderWatchResponse(cmd: Extract<EtcdctlCommand, { type: 'watch' }>, resp: WatchResponse): EtcdctlOutput & { done: boolean } {
  if (resp.canceled) {
    const reason = resp.compactRevision !== 0 ? 'etcdserver: mvcc: required revision has been compacted' : resp.cancelReason;
    return { stdout: '', stderr: `watch was canceled (${reason})\nError: watch is canceled by the server\n`, exitCode: 5, done: true };
  }
  if (resp.events.length === 0) return { stdout: '', stderr: '', exitCode: 0, done: false };
  if (cmd.format === 'json') {
    const stdout = `{"Header":${obj(headerFields(resp.header))},"Events":[${resp.events.map(eventJson).join(',')}],"CompactRevision":${resp.compactRevision},`
      + `"Canceled":${resp.canceled},"Created":${resp.created}}\n`;
    return { stdout, stderr: '', exitCode: 0, done: false };
  }
  let stdout = '';
  for (const e of resp.events) {
    stdout += `${e.type}\n`;
    if (e.prevKv) stdout += kvLines(e.prevKv, false);
    stdout += kvLines(e.kv, false);
  }
  return { stdout, stderr: '', exitCode: 0, done: false };
}
