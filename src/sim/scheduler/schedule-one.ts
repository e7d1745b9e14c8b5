// One pod through kube-scheduler: the scheduling cycle (snapshot, PreFilter, then Filter node after node
// until enough feasible ones are found, PostFilter when none fits, PreScore, Score and NormalizeScore on
// the feasible ones, selectHost, assume,
// Reserve, Permit), then the binding cycle (PreBind, Bind), each step recorded in the attempt log; a
// failure records FailedScheduling, sets PodScheduled=False and puts the pod back in the queue.
// Models pkg/scheduler/schedule_one.go (scheduleOne, schedulingCycle, bindingCycle, schedulePod,
// findNodesThatFitPod, findNodesThatPassFilters, prioritizeNodes, selectHost, assume, handleSchedulingFailure).
//
// percentageOfNodesToScore: Filter runs on the snapshot's nodes starting at nextStartNodeIndex, wrapping,
// and stops once numFeasibleNodesToFind (nodes-to-find.ts) nodes passed; nextStartNodeIndex then moves on
// by the nodes examined. Upstream filters with 16 workers and cancels when enough passed, so which nodes
// were checked by then is racy; the model checks them one by one in order, so it examines exactly the
// nodes up to the last feasible one needed. The attempt record holds only the nodes examined, in the
// order examined.
//
// Not modelled: the shortcut that skips scoring when one node is feasible (its scores are recorded too).

import { isStatusError } from '../api/errors.ts';
import { formatTimestamp } from '../api/time.ts';
import type { Pod } from '../api/types/core.ts';
import { podType, typed, type ClientHost, type EventRecorder, type ResourceClient } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import { AttemptRecord, filterDecision, scoredDecision, type AttemptLog } from './attempt-record.ts';
import { fitErrorMessage } from './framework/fit-error.ts';
import { CycleState, type FilterPlugin, type FilterResult, type PluginFailure } from './framework/interface.ts';
import type { Framework } from './framework/runtime.ts';
import type { NodeInfo } from './framework/types.ts';
import { numFeasibleNodesToFind } from './nodes-to-find.ts';
import type { SchedulerCache } from './internal/cache/cache.ts';
import type { QueuedPodInfo, SchedulingQueue } from './internal/queue/scheduling-queue.ts';

/** What scheduling one pod reads and changes: the scheduler's queue, cache, profile and clients. */
export interface SchedulerParts {
  readonly host: ClientHost;
  readonly queue: SchedulingQueue;
  readonly cache: SchedulerCache;
  readonly framework: Framework;
  readonly attemptLog: AttemptLog;
  readonly recorder: EventRecorder;
  /** The pods client the PodScheduled=False status patch goes through. */
  readonly podsApi: ResourceClient<Pod>;
  /** The global percentageOfNodesToScore (KubeSchedulerConfiguration; 0: adaptive). */
  readonly percentageOfNodesToScore: number;
  /** Where the next Filter phase starts in the snapshot's node list. */
  nextStartNodeIndex: number;
}

/** The Filter plugins' names, per plugin list: shared by all attempts' records. */
const filterNamesOf = new WeakMap<readonly FilterPlugin[], readonly string[]>();

function filterNames(filters: readonly FilterPlugin[]): readonly string[] {
  let names = filterNamesOf.get(filters);
  if (names === undefined) {
    names = Object.freeze(filters.map((p) => p.name));
    filterNamesOf.set(filters, names);
  }
  return names;
}

export function* scheduleOne(s: SchedulerParts, key: string, pod: Pod, q: QueuedPodInfo): Co<void> {
  const { framework, host } = s;
  const state = new CycleState();
  const infos = s.cache.snapshot();

  // findNodesThatFitPod: PreFilter once, then the nodes through the Filter plugins until enough fit.
  framework.runPreFilterPlugins(state, pod);
  const filters = framework.plugins.filter;
  const numAllNodes = infos.length;
  const numNodesToFind = numFeasibleNodesToFind(s.percentageOfNodesToScore, numAllNodes);
  const start = numAllNodes === 0 ? 0 : s.nextStartNodeIndex % numAllNodes;
  /** Per node examined, the index of the Filter plugin that rejected it (-1: feasible), and the rejections' reasons. */
  const examined: string[] = [];
  const failedAt: number[] = [];
  const reasons: (readonly string[])[] = [];
  const failures: FilterResult[] = [];
  const feasible: NodeInfo[] = [];
  for (let i = 0; i < numAllNodes && feasible.length < numNodesToFind; i++) {
    const info = infos[(start + i) % numAllNodes]!;
    const failed = framework.runFilterPlugins(state, pod, info);
    examined.push(info.node.metadata.name ?? '');
    failedAt.push(failed ? failed.index : -1);
    if (failed) {
      failures.push(failed.result);
      reasons.push(failed.result.reasons);
    } else {
      feasible.push(info);
    }
  }
  if (numAllNodes > 0) s.nextStartNodeIndex = (start + examined.length) % numAllNodes;
  const filtered = filterDecision(s.attemptLog.sharedNodes(examined), filterNames(filters), Int16Array.from(failedAt), reasons);
  const uid = pod.metadata.uid ?? '';

  if (feasible.length === 0) {
    const message = fitErrorMessage(infos.length, failures, framework.runPostFilterPlugins(state, pod, infos.length, failures));
    s.attemptLog.record(new AttemptRecord(key, uid, q.attempts, host.now, filtered, null, message, false));
    yield* handleSchedulingFailure(s, key, pod, q, message);
    return;
  }

  // prioritizeNodes: each plugin scores every feasible node, normalizes, and is weighted.
  const totals = feasible.map(() => 0);
  const skip = framework.runPreScorePlugins(state, pod, feasible, infos);
  const scores = framework.runScorePlugins(state, pod, feasible, skip);
  for (const { weight, normalized } of scores) {
    for (let i = 0; i < feasible.length; i++) totals[i] = totals[i]! + normalized[i]! * weight;
  }
  const selected = selectHost(host, feasible, totals);
  const record = new AttemptRecord(key, uid, q.attempts, host.now, scoredDecision(filtered, scores, feasible.length), selected, '', false);
  s.attemptLog.record(record);

  // assume, Reserve and Permit; then the binding cycle: PreBind and Bind.
  s.cache.assumePod(key, { ...pod, spec: { ...pod.spec, nodeName: selected } });
  const failure: PluginFailure = framework.runReservePluginsReserve(state, pod, selected)
    ?? framework.runPermitPlugins(state, pod, selected)
    ?? (yield* framework.runPreBindPlugins(state, pod, selected))
    ?? (yield* framework.runBindPlugins(state, pod, selected));
  if (failure) {
    s.cache.forgetPod(key);
    framework.runReservePluginsUnreserve(state, pod, selected);
    s.attemptLog.replace(record, record.settled({ message: failure.message }));
    yield* handleSchedulingFailure(s, key, pod, q, failure.message, failure.code === 'Unschedulable');
    return;
  }
  s.attemptLog.replace(record, record.settled({ bound: true }));
  s.queue.delete(key);
  s.recorder.event(typed(pod, podType), 'Normal', 'Scheduled', `Successfully assigned ${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''} to ${selected}`);
}

/** selectHost: the highest total; ties broken uniformly at random (reservoir sampling). */
function selectHost(host: ClientHost, feasible: readonly NodeInfo[], totals: readonly number[]): string {
  let selected = '';
  let best = -Infinity;
  let ties = 0;
  for (let i = 0; i < feasible.length; i++) {
    const n = feasible[i]!.node.metadata.name ?? '';
    const total = totals[i]!;
    if (total > best) {
      best = total;
      selected = n;
      ties = 1;
    } else if (total === best) {
      ties++;
      if (host.rng.int(ties) === 0) selected = n;
    }
  }
  return selected;
}

// Models schedule_one.go handleSchedulingFailure: back to the queue, the FailedScheduling event, and
// PodScheduled=False with the message (not written again when it is already the pod's condition).
function* handleSchedulingFailure(s: SchedulerParts, key: string, pod: Pod, q: QueuedPodInfo, message: string, unschedulable = true): Co<void> {
  s.queue.addUnschedulableIfNotPresent(key, q, unschedulable);
  s.recorder.event(typed(pod, podType), 'Warning', 'FailedScheduling', message);
  const condition = {
    type: 'PodScheduled', status: 'False', lastProbeTime: null,
    lastTransitionTime: formatTimestamp(s.host.epochMs + s.host.now),
    reason: 'Unschedulable', message,
  };
  const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (current && current.status === 'False' && current.reason === 'Unschedulable' && current.message === message) return;
  try {
    yield* s.podsApi.patch(pod.metadata.namespace, pod.metadata.name ?? '', 'application/strategic-merge-patch+json',
      { status: { conditions: [condition] } }, { subresource: 'status' });
  } catch (err) {
    if (!isStatusError(err)) throw err;
  }
}
