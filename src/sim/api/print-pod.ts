// The Pod row of `kubectl get pods`: READY, STATUS with upstream's reasoning over init and app containers
// (Init:N/M, CrashLoopBackOff, Terminating, NodeLost…), RESTARTS with the last restart's age, the wide
// columns, and the Completed row condition of finished pods.
// Models printPod in k8s pkg/printers/internalversion/printers.go.

import { humanDuration, translateTimestampSince } from './duration.ts';
import { parseTimestamp } from './time.ts';
import type { Container, ContainerStatus, Pod } from './types/index.ts';
import type { TableCell, TableRow, TableRowCondition } from './types/meta.ts';

const podSucceeded: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const podFailed: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

function finishedAt(s: ContainerStatus): number | undefined {
  const f = s.lastState?.terminated?.finishedAt;
  return f ? parseTimestamp(f) : undefined;
}

/** printPod: READY, STATUS (with upstream's reasoning over init and app containers), RESTARTS, wide columns. */
export function podRow(pod: Pod, nowMs: number): Pick<TableRow, 'cells' | 'conditions'> {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const isRestartable = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';
  const initByName = new Map((spec.initContainers ?? []).map((c) => [c.name, c]));
  let restarts = 0;
  let restartableInitRestarts = 0;
  const totalContainers = spec.containers.length + (spec.initContainers ?? []).filter(isRestartable).length;
  let readyContainers = 0;
  let lastRestart: number | undefined;
  let lastRestartableInitRestart: number | undefined;
  const later = (a: number | undefined, b: number | undefined): number | undefined => (b !== undefined && (a === undefined || a < b) ? b : a);

  let reason: string = status.reason || status.phase || '';
  for (const c of status.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount;
    lastRestart = later(lastRestart, finishedAt(c));
    const restartable = isRestartable(initByName.get(c.name));
    if (restartable) {
      restartableInitRestarts += c.restartCount;
      lastRestartableInitRestart = later(lastRestartableInitRestart, finishedAt(c));
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated !== undefined && terminated.exitCode === 0) continue;
    if (restartable && c.started === true) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (terminated !== undefined) {
      reason = terminated.reason ? `Init:${terminated.reason}` : terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = (status.conditions ?? []).find((c) => c.type === 'Initialized')?.status === 'True';
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount;
      lastRestart = later(lastRestart, finishedAt(c));
      const waiting = c.state?.waiting;
      const terminated = c.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated !== undefined) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
      else if (c.ready && c.state?.running !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp !== undefined) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';

  const restartsText = restarts !== 0 && lastRestart !== undefined ? `${restarts} (${humanDuration(nowMs - lastRestart)} ago)` : String(restarts);
  let readinessGates = '<none>';
  if ((spec.readinessGates ?? []).length > 0) {
    const trueGates = spec.readinessGates!.filter((g) => (status.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length;
    readinessGates = `${trueGates}/${spec.readinessGates!.length}`;
  }
  const cells: TableCell[] = [
    pod.metadata.name ?? '', `${readyContainers}/${totalContainers}`, reason, restartsText, translateTimestampSince(pod.metadata.creationTimestamp, nowMs),
    status.podIPs?.[0]?.ip || '<none>', spec.nodeName || '<none>', status.nominatedNodeName || '<none>', readinessGates,
  ];
  const conditions = status.phase === 'Succeeded' ? podSucceeded : status.phase === 'Failed' ? podFailed : undefined;
  return conditions === undefined ? { cells } : { cells, conditions };
}
