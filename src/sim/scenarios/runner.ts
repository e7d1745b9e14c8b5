// Drives a cluster through a scenario. kubectl steps are sent by the user component, so each is the root
// of a cause chain; a command that needs an answer before its next request is resumed when the answer is
// delivered (an engine delivery listener), so it unfolds step by step under any playback mode. Fault
// steps are user actions through the cluster's fault injection (faults.ts); `runUntilIdle` and `advance` steps only say how far to run.
//
// Two ways to use it:
//   - tests and fast-forward: `runStep()` / `runAll()` run the engine themselves;
//   - the worker, which owns playback: `begin()` starts the next step and returns it, `busy` says whether
//     its kubectl command still waits for answers; playback steps are the worker's to carry out.

import { httpKinds, type HttpRequest, type HttpResponse, type HttpWatchEvent } from '../wire/http.ts';
import type { Cluster } from '../cluster.ts';
import { minute, type Component, type Duration, type Message } from '../engine/index.ts';
import { create, deleteObject, deleteOnePod, setImage, scale, type KubectlCommand, type KubectlInput } from './kubectl.ts';
import type { Fault } from '../faults.ts';
import type { Scenario, ScenarioStep } from './scenario.ts';

export interface StepRecord {
  readonly index: number;
  readonly step: ScenarioStep;
  /** The engine step count when it began. */
  readonly beganAfterStep: number;
  /** Ids of the requests the user sent for it, in order. */
  readonly requestIds: number[];
  /** What kubectl printed (empty for fault and playback steps). */
  output: readonly string[];
  ok: boolean;
  finished: boolean;
}

/** A step that needs a kubectl command, as the command line a user would type. */
export function commandLine(step: ScenarioStep): string {
  switch (step.do) {
    case 'create': return `kubectl create -f ${step.file}`;
    case 'scale': return `kubectl scale ${step.resource}/${step.name} --replicas=${step.replicas}`;
    case 'setImage': return `kubectl set image ${step.resource}/${step.name} ${step.container}=${step.image}`;
    case 'delete': return `kubectl delete ${step.resource} ${step.name}${step.propagationPolicy ? ` --cascade=${step.propagationPolicy.toLowerCase()}` : ''}`;
    // `-o name` prints `pod/<name>`, which kubectl takes alone: `delete pod pod/<name>` is refused ("there is
    // no need to specify a resource type as a separate argument …", k8s.io/cli-runtime resource.HasNames).
    case 'deleteOnePod': return `kubectl delete $(kubectl get pods -l ${step.labelSelector} -o name | head -1)`;
    case 'fault': return faultLine(step.fault);
    case 'runUntilIdle': return '# run until idle';
    case 'advance': return `# advance ${step.ms / 1000} s`;
  }
}

function faultLine(f: Fault): string {
  switch (f.type) {
    case 'stop': case 'start': return `# fault: ${f.type} ${f.component}`;
    case 'nodeDown': case 'nodeUp': return `# fault: ${f.type} ${f.node}`;
    case 'compactEtcd': return '# fault: etcdctl compact <current revision>';
    case 'breakEtcdWatches': return "# fault: kube-apiserver's watch stream to etcd breaks; clientv3 creates its watches again";
    case 'dropWatches': return `# fault: kube-apiserver drops the watches of ${f.component ?? 'every client'}`;
    case 'linkLatency': return `# fault: latency ${f.a} ↔ ${f.b} ${f.latency} ms`;
    case 'imageUnpullable': return `# fault: image ${f.image} cannot be pulled`;
    case 'imageCrashes': return `# fault: containers of ${f.image} exit with code ${f.exitCode} after ${f.afterSeconds} s`;
    case 'etcdMemberStop': case 'etcdMemberStart': case 'etcdPartition': return `# fault: ${f.type} ${f.member}`;
    case 'etcdKillLeader': return '# fault: stop the etcd leader';
    case 'etcdHeal': return '# fault: the etcd members hear each other again';
    case 'etcdSlowDisk': return `# fault: etcd member ${f.member} fsync ${f.fsyncMs} ms`;
  }
}

export class ScenarioRunner {
  readonly records: StepRecord[] = [];
  private nextIndex = 0;
  private command: KubectlCommand | null = null;
  private current: StepRecord | null = null;
  /** The request whose answer the command waits for. */
  private awaiting: number | null = null;
  /** The command's open watch, its undelivered inputs, and whether the command waits to read one. */
  private watch: number | null = null;
  private watchInputs: KubectlInput[] = [];
  private wantsNext = false;
  private readonly stopListening: () => void;

  /**
   * `maxCommandWait`: how long (virtual ms) `runStep` lets a kubectl command wait for its answers, e.g.
   * `kubectl delete` for an object held by a finalizer nobody removes (default 10 minutes).
   */
  constructor(readonly cluster: Cluster<Component>, readonly scenario: Scenario, private readonly maxCommandWait: Duration = 10 * minute) {
    this.stopListening = cluster.engine.onDelivery((m) => this.delivered(m));
  }

  /** Every step has begun and none still waits for answers. */
  get done(): boolean {
    return this.nextIndex >= this.scenario.steps.length && this.command === null;
  }

  /** The current step's kubectl command still waits for answers. */
  get busy(): boolean {
    return this.command !== null;
  }

  get nextStep(): ScenarioStep | undefined {
    return this.scenario.steps[this.nextIndex];
  }

  /**
   * Begins the next step: a kubectl step sends its first request, a fault acts now, a playback step
   * does nothing (whoever drives playback carries it out). Throws while the previous command is busy.
   */
  begin(): StepRecord {
    if (this.command !== null) throw new Error('the previous kubectl command has not finished');
    const step = this.scenario.steps[this.nextIndex];
    if (step === undefined) throw new Error(`scenario ${this.scenario.id} has no more steps`);
    const record: StepRecord = { index: this.nextIndex++, step, beganAfterStep: this.cluster.engine.step, requestIds: [], output: [], ok: true, finished: false };
    this.records.push(record);
    this.current = record;
    const command = this.commandFor(step);
    if (command !== null) {
      this.command = command;
      this.resume(undefined);
    } else {
      if (step.do === 'fault') this.inject(step.fault, record);
      record.finished = true;
    }
    return record;
  }

  /** Begins the next step and runs the engine until it is over. */
  runStep(): StepRecord {
    const record = this.begin();
    const { engine } = this.cluster;
    if (record.step.do === 'runUntilIdle') {
      const result = engine.runUntilIdle();
      if (result.reason === 'max-steps') throw new Error(`step ${record.index} of ${this.scenario.id}: the cluster did not settle`);
    } else if (record.step.do === 'advance') {
      engine.runFor(record.step.ms);
    }
    const deadline = engine.now + this.maxCommandWait;
    while (this.command !== null) {
      const next = engine.stepOnce();
      if (next === null || engine.now > deadline) {
        throw new Error(`step ${record.index} of ${this.scenario.id} (${commandLine(record.step)}) is still waiting for an answer after ${engine.now - deadline + this.maxCommandWait} ms`);
      }
    }
    return record;
  }

  /** Runs every remaining step; `afterStep` sees each one when it is over. */
  runAll(afterStep?: (record: StepRecord) => void): readonly StepRecord[] {
    while (!this.done) {
      const record = this.runStep();
      afterStep?.(record);
    }
    return this.records;
  }

  /** Stops listening to deliveries (the runner is discarded). */
  dispose(): void {
    this.stopListening();
  }

  private commandFor(step: ScenarioStep): KubectlCommand | null {
    switch (step.do) {
      case 'create': {
        const manifest = this.scenario.manifests.find((m) => m.file === step.file);
        if (!manifest) throw new Error(`scenario ${this.scenario.id} has no manifest ${step.file}`);
        return create(manifest.yaml, manifest.file);
      }
      case 'scale': return scale(step.resource, step.name, step.replicas);
      case 'setImage': return setImage(step.resource, step.name, step.container, step.image);
      case 'delete': return deleteObject(step.resource, step.name, step.propagationPolicy, this.watchTimeoutSeconds());
      case 'deleteOnePod': return deleteOnePod(step.labelSelector, this.watchTimeoutSeconds());
      case 'fault': case 'runUntilIdle': case 'advance': return null;
    }
  }

  /** A reflector's watch timeout, [300, 600) s (client-go reflector.go, minWatchTimeout × (1 + rand)). */
  private watchTimeoutSeconds(): number {
    return Math.floor(300 * (1 + this.cluster.engine.rng.float()));
  }

  /** Injects a fault as a user action: it takes effect when the engine delivers it. */
  private inject(f: Fault, record: StepRecord): void {
    record.requestIds.push(this.cluster.fault(f).id);
  }

  private delivered(message: Message): void {
    if (this.command === null || message.to !== this.cluster.user.name || message.replyTo === null) return;
    if (message.replyTo === this.awaiting) {
      this.awaiting = null;
      this.resume({ type: 'response', response: message.payload as HttpResponse });
    } else if (message.replyTo === this.watch) {
      this.watchInputs.push(message.kind === httpKinds.watchEvent ? { type: 'event', event: message.payload as HttpWatchEvent } : { type: 'end' });
      if (message.kind !== httpKinds.watchEvent) this.watch = null;
      if (this.wantsNext) {
        this.wantsNext = false;
        this.resume(this.watchInputs.shift());
      }
    }
  }

  /** Resumes the command with `input` and acts on what it yields next. */
  private resume(input: KubectlInput | undefined): void {
    const command = this.command;
    const record = this.current;
    if (command === null || record === null) return;
    let next = command.next(input as KubectlInput);
    for (;;) {
      if (next.done) {
        record.output = next.value.output;
        record.ok = next.value.ok;
        record.finished = true;
        this.command = null;
        this.cancelWatch();
        return;
      }
      const call = next.value;
      if (call.call === 'next') {
        const queued = this.watchInputs.shift();
        if (queued === undefined) {
          this.wantsNext = true;
          return;
        }
        next = command.next(queued);
        continue;
      }
      this.cancelWatch();
      const sent = this.send(call.request);
      record.requestIds.push(sent);
      this.awaiting = sent;
      if (call.call === 'watch') this.watch = sent;
      return;
    }
  }

  private send(request: HttpRequest): number {
    return this.cluster.user.request(this.cluster.apiserver.name, httpKinds.request, request).id;
  }

  private cancelWatch(): void {
    if (this.watch !== null) {
      this.cluster.user.request(this.cluster.apiserver.name, httpKinds.cancel, { requestId: this.watch });
    }
    this.watch = null;
    this.watchInputs = [];
    this.wantsNext = false;
  }
}

/** Builds a runner and runs the whole scenario; returns the runner (its records, the cluster). */
export function runScenario(cluster: Cluster, scenario: Scenario, afterStep?: (record: StepRecord) => void): ScenarioRunner {
  const runner = new ScenarioRunner(cluster, scenario);
  try {
    runner.runAll(afterStep);
  } finally {
    runner.dispose();
  }
  return runner;
}
