// Exponential backoff with jitter and a reset after a quiet period, as the Reflector uses between
// ListAndWatch attempts and between failed watch connections (800 ms doubling to 30 s, jitter 1.0,
// reset after 2 min without backoff). Jitter draws from the engine's seeded RNG.
// Models k8s.io/apimachinery/pkg/util/wait/backoff.go (Backoff.Step, Jitter, exponentialBackoffManagerImpl).

import type { Duration, Rng, Time } from '../engine/index.ts';

export interface BackoffParameters {
  readonly initial: Duration;
  readonly cap: Duration;
  readonly resetAfter: Duration;
  readonly factor: number;
  readonly jitter: number;
}

/** reflector.go NewReflectorWithOptions: backoffManager and initConnBackoffManager. */
export const reflectorBackoff: BackoffParameters = { initial: 800, cap: 30_000, resetAfter: 120_000, factor: 2, jitter: 1 };

export class ExponentialBackoffManager {
  private duration: Duration;
  private lastBackoffStart: Time | null = null;

  constructor(private readonly params: BackoffParameters, private readonly rng: () => Rng) {
    this.duration = params.initial;
  }

  /** The next wait: the current step with jitter `d + rand·jitter·d`; the step then grows by `factor` up to `cap`. */
  next(now: Time): Duration {
    if (this.lastBackoffStart === null || now - this.lastBackoffStart > this.params.resetAfter) this.duration = this.params.initial;
    this.lastBackoffStart = now;
    const step = this.duration;
    this.duration = Math.min(this.duration * this.params.factor, this.params.cap);
    return this.params.jitter > 0 ? step + this.rng().float() * this.params.jitter * step : step;
  }
}
