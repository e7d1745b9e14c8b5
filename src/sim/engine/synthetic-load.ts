// A synthetic workload for engine tests and benchmarks: `components` peers in a ring, linked with a
// jittered latency; each delivery forwards a token to a random peer until `messages` have been sent.
// It exercises the queue, links, jitter and the RNG, and nothing else.

import { Component } from './component.ts';
import { Engine } from './engine.ts';
import type { Message } from './message.ts';

export interface SyntheticLoadOptions {
  readonly seed: string | number;
  readonly components?: number;
  readonly messages?: number;
  readonly tokens?: number;
  readonly traceLimit?: number;
}

class Peer extends Component {
  constructor(name: string, private readonly load: { remaining: number; peers: string[] }) {
    super(name);
  }

  receive(message: Message): void {
    if (this.load.remaining <= 0) return;
    this.load.remaining--;
    const peers = this.load.peers;
    const to = peers[this.rng.int(peers.length)]!;
    this.send(to === this.name ? peers[(peers.indexOf(to) + 1) % peers.length]! : to, 'token', message.payload);
  }
}

export function syntheticLoad(options: SyntheticLoadOptions): Engine {
  const n = options.components ?? 100;
  const engine = new Engine({ seed: options.seed, ...(options.traceLimit !== undefined ? { traceLimit: options.traceLimit } : {}) });
  const peers = Array.from({ length: n }, (_, i) => `peer-${i}`);
  const load = { remaining: options.messages ?? 100_000, peers };
  for (const name of peers) engine.add(new Peer(name, load));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) engine.link(peers[i]!, peers[j]!, { latency: 1 + ((i + j) % 5), jitter: 0.5 });
  }
  const tokens = Math.min(options.tokens ?? 64, load.remaining);
  for (let t = 0; t < tokens; t++) {
    load.remaining--;
    engine.send(peers[t % n]!, peers[(t + 1) % n]!, 'token', { token: t });
  }
  return engine;
}
