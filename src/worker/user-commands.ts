// The user commands that change the simulation (`applyManifest`, `userRequest`): checked, then sent by the
// user component. The host applies them live and logs them; replay applies the logged ones again at the
// same step, so both go through this one function.

import type { Command, LoggableCommand } from '../protocol/index.ts';
import { httpKinds, type HttpRequest } from '../sim/wire/http.ts';
import { parseManifest } from '../sim/api/manifest.ts';
import { componentNames } from '../sim/cluster.ts';
import type { Fault } from '../sim/cluster.ts';
import type { Engine } from '../sim/engine/index.ts';
import type { User } from '../sim/user/user.ts';
import { createRequest, kubectlHttpRequest } from '../sim/scenarios/kubectl.ts';
import { consoleOf, type ConsoleCluster } from './console/console-of.ts';
import type { ClusterMessageKind, ClusterMessages } from '../sim/messages/index.ts';

export interface CommandTarget extends ConsoleCluster {
  readonly engine: Engine;
  readonly user: User;
  /** Injects a fault as a user action (src/sim/faults.ts); absent in clusters that cannot. */
  readonly fault?: (fault: Fault) => unknown;
  readonly topology: { readonly components: readonly { readonly name: string; readonly modelled: boolean }[] };
}

/** The page's command of a loggable type, as the log keeps it: only the fields replay needs. */
export function loggable(command: Extract<Command, { readonly type: LoggableCommand['type'] }>): LoggableCommand {
  switch (command.type) {
    case 'applyManifest':
      return { type: 'applyManifest', yaml: command.yaml };
    case 'userRequest':
      return { type: 'userRequest', to: command.to, kind: command.kind, payload: command.payload };
    case 'consoleRun':
      return { type: 'consoleRun', id: command.id, line: command.line, ...(command.stdin !== undefined ? { stdin: command.stdin } : {}) };
    case 'consoleInterrupt':
      return { type: 'consoleInterrupt', id: command.id };
    case 'fault':
      return { type: 'fault', fault: command.fault };
  }
}

/** Sends what `command` asks for; throws (having sent nothing) when it cannot be carried out. */
export function applyUserCommand(cluster: CommandTarget, command: LoggableCommand): void {
  const { engine, user, topology } = cluster;
  switch (command.type) {
    case 'applyManifest': {
      // `kubectl create -f -` with the editor's text: every document is parsed and checked first (a bad
      // one sends nothing), then each object is POSTed to its collection as the admin user.
      const requests = createRequests(command.yaml);
      for (const request of requests) user.request(componentNames.apiserver, httpKinds.request, request);
      return;
    }
    case 'userRequest': {
      const target = topology.components.find((c) => c.name === command.to);
      if (!target) throw new Error(`no component named ${command.to}`);
      if (!target.modelled || !engine.linked(user.name, target.name)) throw new Error(`${target.name} is not modelled yet, so it cannot answer ${command.kind}`);
      // A command is data from the page or a saved file: its kind and payload are the model's as sent.
      user.request(target.name, command.kind as ClusterMessageKind, command.payload as ClusterMessages[ClusterMessageKind]);
      return;
    }
    case 'consoleRun':
      consoleOf(cluster).session.run(command.id, command.line, command.stdin);
      return;
    case 'consoleInterrupt':
      consoleOf(cluster).session.interrupt(command.id);
      return;
    case 'fault':
      if (!cluster.fault) throw new Error('this cluster cannot inject faults');
      cluster.fault(command.fault);
      return;
  }
}

/** A short text naming a command, for timeline markers. */
export function describeUserCommand(command: LoggableCommand): string {
  if (command.type === 'userRequest') return `${command.kind} → ${command.to}`;
  if (command.type === 'consoleRun') return command.line;
  if (command.type === 'consoleInterrupt') return `^C (command ${command.id})`;
  if (command.type === 'fault') return `fault: ${Object.values(command.fault).join(' ')}`;
  const { objects, errors } = parseManifest(command.yaml, manifestSource);
  if (errors.length > 0 || objects.length === 0) return 'kubectl create -f';
  return `kubectl create -f (${objects.map((o) => `${o.gvk.kind} ${o.object.metadata.name ?? o.object.metadata.generateName ?? ''}`).join(', ')})`;
}

/** The name kubectl's errors give a manifest read from standard input. */
const manifestSource = 'STDIN';

/**
 * The requests `kubectl create -f -` sends for a manifest (reference/kubectl-wire.md §3.5), built as the
 * console's and the scenarios' kubectl build them; throws kubectl's error lines when it would send none.
 */
function createRequests(yaml: string): HttpRequest[] {
  const { objects, errors } = parseManifest(yaml, manifestSource);
  if (errors.length > 0) throw new Error(errors.map((e) => `error: ${e.message}`).join('\n'));
  if (objects.length === 0) throw new Error('error: no objects passed to create');
  return objects.map(({ object, resource }) => {
    const namespace = resource.namespaced ? object.metadata.namespace ?? 'default' : null;
    return kubectlHttpRequest(createRequest(resource, namespace, object));
  });
}
