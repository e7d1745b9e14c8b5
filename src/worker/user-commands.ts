// The user commands that change the simulation (`applyManifest`, `userRequest`): checked, then sent by the
// user component. The host applies them live and logs them; replay applies the logged ones again at the
// same step, so both go through this one function.

import type { LoggableCommand } from '../protocol/index.ts';
import { httpKinds, type HttpRequest } from '../sim/wire/http.ts';
import { builtinTokens } from '../sim/wire/credentials.ts';
import { collectionPath, resourceForKind } from '../sim/api/resources.ts';
import { componentNames } from '../sim/cluster.ts';
import type { Fault } from '../sim/cluster.ts';
import type { Engine } from '../sim/engine/index.ts';
import type { User } from '../sim/user/user.ts';
import { kubectlUserAgent } from '../sim/scenarios/kubectl.ts';
import { consoleOf, type ConsoleCluster } from './console/console-of.ts';
import { parseManifest, type ManifestObject } from './manifest.ts';
import type { ClusterMessageKind, ClusterMessages } from '../sim/messages/index.ts';

export interface CommandTarget extends ConsoleCluster {
  readonly engine: Engine;
  readonly user: User;
  /** Injects a fault as a user action (src/sim/faults.ts); absent in clusters that cannot. */
  readonly fault?: (fault: Fault) => unknown;
  readonly topology: { readonly components: readonly { readonly name: string; readonly modelled: boolean }[] };
}

/** Sends what `command` asks for; throws (having sent nothing) when it cannot be carried out. */
export function applyUserCommand(cluster: CommandTarget, command: LoggableCommand): void {
  const { engine, user, topology } = cluster;
  switch (command.type) {
    case 'applyManifest': {
      // `kubectl create -f`: every document is parsed first (a bad one sends nothing), then each is
      // POSTed to its collection as the admin user.
      const requests = parseManifest(command.yaml).map(createRequest);
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
  try {
    const objects = parseManifest(command.yaml);
    return `kubectl create -f (${objects.map((o) => `${o.kind} ${o.name}`).join(', ')})`;
  } catch {
    return 'kubectl create -f';
  }
}

/** The request `kubectl create -f` sends for one object (reference/kubectl-wire.md §3.5). */
function createRequest(m: ManifestObject): HttpRequest {
  const slash = m.apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', m.apiVersion] : [m.apiVersion.slice(0, slash), m.apiVersion.slice(slash + 1)];
  const resource = resourceForKind({ group, version, kind: m.kind });
  if (!resource) throw new Error(`error: resource mapping not found for name: "${m.name}" namespace: "${m.namespace ?? ''}" from "manifest": no matches for kind "${m.kind}" in version "${m.apiVersion}"`);
  return {
    method: 'POST',
    path: collectionPath(resource, m.namespace ?? 'default'),
    query: 'fieldManager=kubectl-create&fieldValidation=Strict',
    headers: {
      authorization: `Bearer ${builtinTokens.admin}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': kubectlUserAgent,
    },
    body: JSON.stringify(m.object),
  };
}
