// Runs an etcdctl command line as the user component: unary commands are one etcd RPC message and its
// reply, rendered by src/sim/etcd/etcdctl.ts; `watch` opens a watch stream of the user's and prints each
// WatchResponse as it is delivered, until the server cancels it (compaction) or the user interrupts.

import { etcdKinds, type EtcdReply, type WatchStreamResponse } from '../../sim/etcd/server.ts';
import { parseEtcdctl, renderReply, renderWatchResponse, type EtcdctlCommand } from '../../sim/etcd/etcdctl.ts';
import { awaitReply, type Co, type Message } from '../../sim/engine/index.ts';
import type { CommandIO } from './http.ts';
import { splitArgs } from '../../sim/go/shell.ts';
import { runEndpoint, type EtcdMemberView } from './etcdctl-endpoint.ts';

export const etcdComponent = 'etcd';

type WatchCommand = Extract<EtcdctlCommand, { type: 'watch' }>;

/** An open `etcdctl watch`: the stream it owns and what to print with. */
export interface EtcdctlWatch {
  readonly stream: string;
  readonly command: WatchCommand;
}

/** Runs a unary command to completion; for `watch`, opens the stream and returns it (output comes via `watchOutput`). */
export function* runEtcdctl(io: CommandIO, line: string, stream: string, member: EtcdMemberView | null = null): Co<number | EtcdctlWatch> {
  const argv = splitArgs(line);
  if (argv[0] === 'etcdctl') argv.shift();
  // The first word that is neither a flag nor a flag's value is the command.
  let command = 0;
  while (command < argv.length && argv[command]!.startsWith('-')) command += /^(-w|--write-out|--endpoints|--command-timeout)$/.test(argv[command]!) ? 2 : 1;
  if (argv[command] === 'endpoint') return yield* runEndpoint(io, [...argv.slice(command + 1), ...argv.slice(0, command)], member);
  const cmd = parseEtcdctl(line);
  if (cmd.type === 'error') {
    io.err(cmd.stderr);
    return cmd.exitCode;
  }
  if (cmd.type === 'watch') {
    io.user.request(etcdComponent, etcdKinds.watch, { stream, request: { createRequest: cmd.request } });
    return { stream, command: cmd };
  }
  const message = io.user.request(etcdComponent, cmd.kind, cmd.request);
  const reply = (yield* awaitReply<EtcdReply<unknown>>(message.id)) as Message<EtcdReply<unknown>>;
  const output = renderReply(cmd, reply.payload);
  if (output.stdout) io.out(output.stdout);
  if (output.stderr) io.err(output.stderr);
  return output.exitCode;
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
  io.user.request(etcdComponent, etcdKinds.watchClose, { stream: watch.stream });
}
