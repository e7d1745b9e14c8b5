// Virtual time. Every duration and instant in src/sim is a number of virtual milliseconds since the
// simulation started; nothing reads the host clock. `epochMs` (the wall-clock instant that virtual 0
// stands for) only matters where Kubernetes prints timestamps, e.g. creationTimestamp.

/** Virtual milliseconds since the start of the simulation. */
export type Time = number;
/** A span of virtual milliseconds. */
export type Duration = number;

export const millisecond: Duration = 1;
export const second: Duration = 1000;
export const minute: Duration = 60 * second;
export const hour: Duration = 60 * minute;

/** 2023-08-15T00:00:00Z, the day Kubernetes 1.28 was released: the default wall-clock origin. */
export const defaultEpochMs = 1_692_057_600_000;

/** Rounds to whole microseconds so that sums of jittered latencies stay exactly reproducible. */
export function roundToMicros(t: Time): Time {
  return Math.round(t * 1000) / 1000;
}
