// Runs an etcdctl command line as the user component: unary commands are one etcd RPC message and its
// reply, rendered by src/sim/etcd/etcdctl.ts; `watch` opens a watch stream of the user's and prints each
// WatchResponse as it is delivered, until the server cancels it (compaction) or the user interrupts.
// The member is the first of `--endpoints` that accepts the connection (clientv3's balancer skips a
// member that is down); a unary command not answered within the command timeout (`--command-timeout`, 5 s) fails with
// `context deadline exceeded`, as etcdctl's does. `endpoint …` and `member list` run in etcdctl-endpoint.ts.

import { etcdKinds, type EtcdReply, type WatchStreamResponse } from '../../sim/etcd/server.ts';
import { parseEtcdctl, renderReply, renderWatchResponse, type EtcdctlCommand } from '../../sim/etcd/etcdctl.ts';
import { awaitReply, sleep, timedOut, type Co, type Message } from '../../sim/engine/index.ts';
import type { CommandIO } from './http.ts';
import { splitArgs } from '../../sim/go/shell.ts';
import { globalFlags, memberFor, runClusterCommand } from './etcdctl-endpoint.ts';

type WatchCommand = Extract<EtcdctlCommand, { type: 'watch' }>;

/** An open `etcdctl watch`: the member, the stream it owns and what to print with. */
export interface EtcdctlWatch {
  readonly member: string;
  readonly stream: string;
  readonly command: WatchCommand;
}

const deadlineExceeded = 'Error: context deadline exceeded\n';

/** Runs a unary command to completion; for `watch`, opens the stream and returns it (output comes via `watchOutput`). */
export function* runEtcdctl(io: CommandIO, line: string, stream: string, members: readonly string[]): Co<number | EtcdctlWatch> {
  const argv = splitArgs(line);
  if (argv[0] === 'etcdctl') argv.shift();
  // The first word that is neither a flag nor a flag's value is the command.
  let command = 0;
  while (command < argv.length && argv[command]!.startsWith('-')) command += /^(-w|--write-out|--endpoints|--command-timeout)$/.test(argv[command]!) ? 2 : 1;
  if (argv[command] === 'endpoint' || argv[command] === 'member') return yield* runClusterCommand(io, argv, members);
  const cmd = parseEtcdctl(line);
  if (cmd.type === 'error') {
    io.err(cmd.stderr);
    return cmd.exitCode;
  }
  const flags = globalFlags(argv);
  const targets = flags.endpoints.map((e) => memberFor(e, members)).filter((m): m is string => m !== null);
  if (cmd.type === 'watch') {
    const member = targets[0] ?? members[0]!;
    io.user.request(member, etcdKinds.watch, { stream, request: { createRequest: cmd.request } });
    return { member, stream, command: cmd };
  }
  const sentAt = io.engine.now;
  for (const member of targets) {
    const message = io.user.request(member, cmd.kind, cmd.request);
    const reply = yield* awaitReply<EtcdReply<unknown>>(message.id, flags.timeout - (io.engine.now - sentAt));
    if (reply === timedOut) break;
    const payload = (reply as Message<EtcdReply<unknown>>).payload;
    // A refused dial: the balancer tries the next endpoint.
    if (!payload.ok && payload.error.message.includes('connection refused')) continue;
    const output = renderReply(cmd, payload);
    if (output.stdout) io.out(output.stdout);
    if (output.stderr) io.err(output.stderr);
    return output.exitCode;
  }
  const left = flags.timeout - (io.engine.now - sentAt);
  if (left > 0) yield* sleep(left);
  io.err(deadlineExceeded);
  return 1;
}

/** Output for one delivered message of an open watch, or null when the message is not for it. */
export function watchOutput(watch: EtcdctlWatch, message: Message): { stdout: string; stderr: string; done: boolean; exitCode: number } | null {
  if (message.kind !== etcdKinds.watchResponse || message.to !== 'user') return null;
  const payload = message.payload as WatchStreamResponse;
  if (payload.stream !== watch.stream) return null;
  return renderWatchResponse(watch.command, payload.response);
}

/** Ends a watch from the client side (Ctrl-C closes the stream). */
export function closeWatch(io: Pick<CommandIO, 'user'>, watch: EtcdctlWatch): void {
  io.user.request(watch.member, etcdKinds.watchClose, { stream: watch.stream });
}
