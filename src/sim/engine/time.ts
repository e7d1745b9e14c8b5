// Virtual time. Every duration and instant in src/sim is a number of virtual milliseconds since the
// simulation started; nothing reads the host clock. `epochMs` (the wall-clock instant that virtual 0
// stands for) only matters where Kubernetes prints timestamps, e.g. creationTimestamp.

/** Virtual milliseconds since the start of the simulation. */
export type Time = number;
/** A span of virtual milliseconds. */
export type Duration = number;

export const second: Duration = 1000;
export const minute: Duration = 60 * second;
export const hour: Duration = 60 * minute;

/** 2023-08-15T00:00:00Z, the day Kubernetes 1.28 was released: the default wall-clock origin. */
export const defaultEpochMs = 1_692_057_600_000;

/** Rounds to whole microseconds so that sums of jittered latencies stay exactly reproducible. */
export function roundToMicros(t: Time): Time {
  return Math.round(t * 1000) / 1000;
}

/**
 * `duration` plus a random share of up to `maxFactor` of it, drawn from `rng`, to the microsecond.
 * Models k8s.io/apimachinery/pkg/util/wait Jitter.
 */
export function jitter(duration: Duration, maxFactor: number, rng: { float(): number }): Duration {
  return roundToMicros(duration + rng.float() * maxFactor * duration);
}

/**
 * Days since 1970-01-01 → proleptic Gregorian [year, month 1–12, day 1–31], so that layers printing
 * timestamps (Kubernetes' RFC 3339, etcd's log lines) need no host Date. Howard Hinnant's civil_from_days.
 */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
