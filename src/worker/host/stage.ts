// The stage: the cluster on show and what is recorded of it. It holds the live cluster and the spec it was
// built from, its timeline (timeline.ts) and the view that serves past steps from it (timeline-view.ts),
// the story classified from its deliveries (story/), its keyspace mirror (keyspace.ts), what each
// component holds (insides.ts) and the index of trace windows (trace-range.ts). A new cluster is
// `prepare`d (its recorders attached before it boots or replays) and then `adopt`ed as the live one.
// The worker's host (host.ts) and the server's (driven-host.ts) each keep one stage; neither runs the
// engine through it.

import type { WorkerEvent } from '../../protocol/index.ts';
import { milestoneLimit } from '../../protocol/index.ts';
import type { Engine, Message } from '../../sim/engine/index.ts';
import { InsidesRecorder } from '../insides.ts';
import { KeyspaceTracker } from '../keyspace.ts';
import { productBounds, type HostBounds } from './bounds.ts';
import { StoryTap, type StoryRecord } from '../story/record.ts';
import { Timeline } from '../timeline.ts';
import { TimelineView } from '../timeline-view.ts';
import { TraceRangeIndex } from '../trace-range.ts';
import { recordDeliveries, sampleOf, specOptions, type ClusterSpec, type HostedCluster } from './hosted-cluster.ts';

/**
 * A cluster built but not yet live: its recorders, attached from its first delivery on. They are its own
 * until it is adopted: a cluster that fails to boot leaves the live one's recorders as they were.
 */
export interface Prepared {
  readonly cluster: HostedCluster;
  readonly timeline: Timeline;
  readonly story: StoryTap;
  /** What each component holds inside, sampled after every delivery. */
  readonly insides: InsidesRecorder;
}

export class Stage {
  readonly traceRange = new TraceRangeIndex();
  /** The insides before any cluster is adopted: none. */
  private readonly noInsides = new InsidesRecorder();
  private current!: { readonly spec: ClusterSpec } & Prepared;
  private timelineView!: TimelineView;
  private keyspace: KeyspaceTracker | null = null;

  /** `bounds`: how many aged pod versions the keyspace mirror's pod history keeps (host/bounds.ts). */
  constructor(private readonly post: (event: WorkerEvent) => void, private readonly bounds: Pick<HostBounds, 'agedPodVersions' | 'podPruneEvery'> = productBounds) {}

  /**
   * Attaches a new timeline, the insides recorder and a story to `cluster` (freshly built, before it
   * boots or replays), in the order their delivery listeners must run.
   */
  prepare(cluster: HostedCluster): Prepared {
    const timeline = new Timeline(sampleOf(cluster));
    recordDeliveries(cluster, timeline);
    const insides = new InsidesRecorder();
    insides.begin(cluster);
    return { cluster, timeline, story: new StoryTap(cluster), insides };
  }

  /**
   * Makes a prepared cluster (booted or replayed) the live one; the UI gets the story's milestones anew
   * and the keyspace at its head.
   */
  adopt(spec: ClusterSpec, prepared: Prepared): void {
    this.current?.story.stop();
    this.current = { spec, ...prepared };
    const { cluster, timeline, story } = prepared;
    this.post({ type: 'story', replace: true, milestones: story.record.takeAll() });
    const keyspace = cluster.etcd ? new KeyspaceTracker(cluster.etcd, this.bounds) : null;
    this.keyspace = keyspace;
    const { engine } = cluster;
    if (keyspace) engine.onDelivery(() => {
      keyspace.observe(engine.step);
      // Pod versions keep their values for the steps whose deliveries are kept, their chips before.
      keyspace.pods.prune(timeline.revisionAt(Math.min(engine.trace.firstStep, timeline.head)));
    });
    this.timelineView = new TimelineView(timeline, () => this.current.cluster, keyspace, this.post, this.annotate);
    if (keyspace) this.post(keyspace.current());
  }

  /** The `ready` that begins a page's view of `spec` and `cluster` (its boot steps as given). */
  static ready(spec: ClusterSpec, cluster: HostedCluster, bootSteps: number): WorkerEvent {
    return { type: 'ready', seed: spec.seed, nodes: spec.nodes, topology: cluster.topology, bootSteps, ...specOptions(spec) };
  }

  /** `ready` and the story, as a page that attaches now needs them first. */
  opening(): WorkerEvent[] {
    return [
      Stage.ready(this.spec, this.cluster, this.timeline.bootSteps),
      { type: 'story', replace: true, milestones: this.story.milestones.slice(-milestoneLimit) },
    ];
  }

  /** A delivery as posted: with its step, story level and milestone. */
  readonly annotate = (step: number, message: Message) => this.current.story.record.annotate(step, message);

  get spec(): ClusterSpec {
    return this.current.spec;
  }

  /** What each component of the live cluster holds inside, sampled after every delivery. */
  get insides(): InsidesRecorder {
    // Until the first cluster is adopted (a restore's replay still running) there are none to show.
    return this.current?.insides ?? this.noInsides;
  }

  get cluster(): HostedCluster {
    return this.current.cluster;
  }

  get engine(): Engine {
    return this.current.cluster.engine;
  }

  get timeline(): Timeline {
    return this.current.timeline;
  }

  get story(): StoryRecord {
    return this.current.story.record;
  }

  /** The keyspace mirror of the live cluster (null without etcd). */
  get keyspaceTracker(): KeyspaceTracker | null {
    return this.keyspace;
  }

  /** The view of the timeline's position (past steps served from the records). */
  get view(): TimelineView {
    return this.timelineView;
  }
}
