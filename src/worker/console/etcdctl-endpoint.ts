// `etcdctl endpoint health|status [--cluster]` and `etcdctl member list` as etcdctl 3.4.23 runs them
// against the model's members, printed by src/sim/etcd/etcdctl-cluster.ts. `--endpoints` names members
// (`etcd-2:2379`, with or without `http://`); the default, 127.0.0.1:2379, is the first member (the
// console is on its host, as etcdctl on a control-plane node reaches its local member); `--cluster`
// takes the endpoints from a MemberList. Every RPC has etcdctl's command timeout (`--command-timeout`, 5 s): a member that does
// not answer in time, or is down (its client keeps redialling until the deadline), gives `context
// deadline exceeded`.
// - health: each endpoint at once, each through its own client, a linearizable Get of the key "health"
//   (any answer means the member committed a proposal through raft), timed; printed in the order the
//   checks finished. A failed check prints its client's retry warning to stderr when it fails (the
//   client's target names its random ID, `endpoint://client-<uuid>/<endpoint>`, drawn here from an RNG
//   seeded by the command's time and endpoint so the simulation's own stream is untouched).
// - status: endpoint by endpoint, Maintenance.Status; a failed endpoint prints clientv3's retry warning
//   and `Failed to get the status of endpoint …` to stderr and the command exits 1 at the end.
// A retry warning is clientv3's retry interceptor's zap line for the failed attempt, with the gRPC status
// error as the balancer gave it: a member that is down leaves health's one-endpoint balancer with
// `all SubConns are in TransientFailure` (status's client, dialling the endpoint itself, shows the refused
// dial), a member that does not answer in time gives `context deadline exceeded`, a member's own error
// its status code and message. The error printed after it follows rpctypes.Error: etcd's own errors as
// their text, any other as the gRPC status.
// - member list: Cluster.MemberList from the first endpoint that answers.
// Models go.etcd.io/etcd/etcdctl/ctlv3/command/ep_command.go (epHealthCommandFunc, epStatusCommandFunc,
// endpointsFromCluster), member_command.go and global.go (commandCtx: --command-timeout, default 5 s).
// Models clientv3/retry_interceptor.go (unaryClientInterceptor's warning) and clientv3/client.go (the
// `endpoint://client-<uuid>/` target).
// Deviations: a failed attempt is not retried (clientv3 retries a safe call after a member's
// Unavailable until the deadline, logging each attempt); the alarm check after a healthy Get is not made
// (the model raises no alarms).

import { etcdKinds, type EtcdReply } from '../../sim/etcd/server.ts';
import type { EtcdRequestKind, EtcdResponseOf, MessageMap } from '../../sim/messages/index.ts';
import {
  goDuration, printEndpointHealth, printEndpointStatus, printMemberList, type EndpointHealth, type EndpointStatus, type EtcdctlFormat,
} from '../../sim/etcd/etcdctl-cluster.ts';
import { awaitReply, broadcast, Condition, Rng, sleep, timedOut, waitOn, type Co, type Message } from '../../sim/engine/index.ts';
import type { CommandIO } from './http.ts';

/** etcdctl's default `--endpoints`. */
export const etcdEndpoint = '127.0.0.1:2379';

/** etcdctl's default `--command-timeout`, ms. */
const defaultCommandTimeout = 5000;

/** A Go duration flag (`5s`, `500ms`, `1m30s`) in ms, or null. */
export function parseGoDuration(text: string): number | null {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return text === '0' ? 0 : null;
  return parts.reduce((ms, p) => ms + Number(p[1]) * units[p[2]!]!, 0);
}

/** The component serving an endpoint, or null when it names no member. */
export function memberFor(endpoint: string, members: readonly string[]): string | null {
  const host = endpoint.replace(/^https?:\/\//, '');
  if (host === etcdEndpoint || host === 'localhost:2379') return members[0] ?? null;
  const name = /^([^:]+):2379$/.exec(host)?.[1];
  return name !== undefined && members.includes(name) ? name : null;
}

/** The global flags etcdctl's cluster commands read. */
export interface GlobalFlags {
  readonly endpoints: readonly string[];
  readonly format: string;
  readonly cluster: boolean;
  /** `--command-timeout`, ms. */
  readonly timeout: number;
  readonly words: readonly string[];
}

export function globalFlags(argv: readonly string[]): GlobalFlags {
  const words: string[] = [];
  let format = 'simple';
  let endpoints = [etcdEndpoint];
  let cluster = false;
  let timeout = defaultCommandTimeout;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const value = (): string => (eq >= 0 ? a.slice(eq + 1) : argv[++i] ?? '');
    if (name === '-w' || name === '--write-out') format = value();
    else if (name === '--endpoints') endpoints = value().split(',').filter((e) => e !== '');
    else if (name === '--command-timeout') timeout = parseGoDuration(value()) ?? defaultCommandTimeout;
    else if (a === '--cluster') cluster = true;
    else if (!a.startsWith('-')) words.push(a);
  }
  return { endpoints, format, cluster, timeout, words };
}

/** The members endpoints name, and the command timeout. */
interface Target {
  readonly members: readonly string[];
  readonly timeout: number;
}

/**
 * Why a call failed: the member is down or named no member (its client redials until the deadline), it
 * did not answer in time, or it answered with its own error (`code`, gRPC's status code name).
 */
type Failure = { cause: 'down' | 'timeout' } | { cause: 'server'; code: string; message: string };

type Outcome<R> = { ok: true; response: R; ms: number } | ({ ok: false; error: string; ms: number } & Failure);

/** One RPC to the member behind `endpoint`, with etcdctl's command timeout. */
function* call<K extends EtcdRequestKind>(io: CommandIO, target: Target, endpoint: string, kind: K, payload: MessageMap[K]): Co<Outcome<EtcdResponseOf<K>>> {
  type R = EtcdResponseOf<K>;
  const { members, timeout } = target;
  const sentAt = io.engine.now;
  const member = memberFor(endpoint, members);
  const deadline = (): Co<Outcome<R>> => (function* () {
    const left = timeout - (io.engine.now - sentAt);
    if (left > 0) yield* sleep(left);
    return { ok: false, cause: 'down', error: 'context deadline exceeded', ms: io.engine.now - sentAt };
  })();
  if (member === null) return yield* deadline();
  const message = io.user.request(member, kind, payload);
  const reply = yield* awaitReply<EtcdReply<R>>(message.id, timeout);
  if (reply === timedOut) return { ok: false, cause: 'timeout', error: 'context deadline exceeded', ms: io.engine.now - sentAt };
  const r = (reply as Message<EtcdReply<R>>).payload;
  if (r.ok) return { ok: true, response: r.response, ms: io.engine.now - sentAt };
  // A refused dial is retried by the balancer until the deadline.
  if (r.error.message.includes('connection refused')) return yield* deadline();
  const { codeName: code, message: text } = r.error;
  const error = /^(etcdserver|mvcc): /.test(text) ? text : `rpc error: code = ${code} desc = ${text}`;
  return { ok: false, cause: 'server', code, message: text, error, ms: io.engine.now - sentAt };
}

/** The gRPC status error a failed call's attempt ended with; `down` is how the client's balancer saw a dead member. */
function grpcError(failure: Failure, down: string): string {
  switch (failure.cause) {
    case 'down': return `rpc error: code = DeadlineExceeded desc = ${down}`;
    case 'timeout': return 'rpc error: code = DeadlineExceeded desc = context deadline exceeded';
    case 'server': return `rpc error: code = ${failure.code} desc = ${failure.message}`;
  }
}

/** clientv3's retry interceptor's warning for a failed attempt of the client whose target is `target`. */
function retryWarning(io: CommandIO, target: string, error: string): string {
  return `{"level":"warn","ts":"${zapTime(io)}","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed",`
    + `"target":${JSON.stringify(target)},"attempt":0,"error":${JSON.stringify(error)}}\n`;
}

/** zap's ISO8601 time (UTC, milliseconds) at the engine's clock. */
const zapTime = (io: CommandIO): string => new Date(io.engine.epochMs + io.engine.now).toISOString();

function* endpointsFromCluster(io: CommandIO, target: Target, flags: GlobalFlags): Co<string[] | null> {
  if (!flags.cluster) return [...flags.endpoints];
  let last = '';
  for (const endpoint of flags.endpoints) {
    const list = yield* call(io, target, endpoint, etcdKinds.memberList, {});
    if (list.ok) return list.response.members.flatMap((m) => m.clientURLs);
    last = list.error;
  }
  io.err(`Error: failed to fetch endpoints from etcd cluster member list: ${last}\n`);
  return null;
}

function* health(io: CommandIO, target: Target, endpoints: readonly string[], format: EtcdctlFormat): Co<number> {
  const results: EndpointHealth[] = [];
  const done = new Condition('etcdctl endpoint health');
  for (const endpoint of endpoints) {
    const client = `endpoint://client-${new Rng(`etcdctl endpoint health ${io.engine.now} ${endpoint}`).uuid()}/${endpoint}`;
    io.engine.spawn(io.user, (function* () {
      const got = yield* call(io, target, endpoint, etcdKinds.range, { key: 'health' });
      if (!got.ok) io.err(retryWarning(io, client, grpcError(got, 'latest balancer error: all SubConns are in TransientFailure')));
      results.push({ endpoint, health: got.ok, took: goDuration(got.ms), error: got.ok ? '' : got.error });
      if (results.length === endpoints.length) yield* broadcast(done);
    })());
  }
  if (results.length < endpoints.length) yield* waitOn(done);
  const printed = printEndpointHealth(results, format);
  io.out(printed.stdout);
  io.err(printed.stderr);
  if (results.some((h) => !h.health)) {
    io.err('Error: unhealthy cluster\n');
    return 1;
  }
  return 0;
}

function* status(io: CommandIO, target: Target, endpoints: readonly string[], format: EtcdctlFormat): Co<number> {
  const list: EndpointStatus[] = [];
  let failed = false;
  for (const endpoint of endpoints) {
    const got = yield* call(io, target, endpoint, etcdKinds.status, {});
    if (got.ok) {
      list.push({ endpoint, status: got.response });
      continue;
    }
    failed = true;
    const host = endpoint.replace(/^https?:\/\//, '');
    const refused = `latest balancer error: connection error: desc = "transport: Error while dialing dial tcp ${host}: connect: connection refused"`;
    io.err(retryWarning(io, `passthrough:///${endpoint}`, grpcError(got, refused)));
    io.err(`Failed to get the status of endpoint ${endpoint} (${got.error})\n`);
  }
  io.out(printEndpointStatus(list, format));
  return failed ? 1 : 0;
}

/** Runs `etcdctl endpoint health|status …` or `etcdctl member list …` (argv without `etcdctl`); returns the exit code. */
export function* runClusterCommand(io: CommandIO, argv: readonly string[], members: readonly string[]): Co<number> {
  const flags = globalFlags(argv);
  if (!['simple', 'table', 'json'].includes(flags.format)) {
    io.err(`Error: unsupported output format ${flags.format} in the simulation\n`);
    return 4;
  }
  const format = flags.format as EtcdctlFormat;
  const target = { members, timeout: flags.timeout };
  const [group, sub] = flags.words;
  if (group === 'member') {
    if (sub !== 'list') {
      io.err(sub === undefined ? 'Error: member needs a subcommand: add, remove, update, list or promote\n' : `Error: unknown command "${sub}" for "etcdctl member"\n`);
      return 1;
    }
    let last = '';
    for (const endpoint of flags.endpoints) {
      const got = yield* call(io, target, endpoint, etcdKinds.memberList, {});
      if (got.ok) {
        io.out(printMemberList(got.response, format));
        return 0;
      }
      last = got.error;
    }
    io.err(`Error: ${last}\n`);
    return 1;
  }
  if (sub !== 'health' && sub !== 'status') {
    io.err(sub === undefined
      ? 'Error: endpoint needs a subcommand: health, status or hashkv\n'
      : `Error: unknown command "${sub}" for "etcdctl endpoint"\n`);
    return 1;
  }
  const endpoints = yield* endpointsFromCluster(io, target, flags);
  if (endpoints === null) return 1;
  return sub === 'health' ? yield* health(io, target, endpoints, format) : yield* status(io, target, endpoints, format);
}
