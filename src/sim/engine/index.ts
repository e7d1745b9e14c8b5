export { Component } from './component.ts';
export { awaitDelivery, awaitReply, sleep, timedOut, type Co, type Effect, type SleepReason, type TimedOut } from './coroutine.ts';
export {
  Engine, InvariantError, wakeTimerName, type Reservation,
  type EngineOptions, type LinkOptions, type RunOptions, type RunResult, type RunStopReason, type SendOptions,
} from './engine.ts';
export { EventQueue } from './event-queue.ts';
export { timerKind, type Message, type TimerPayload } from './message.ts';
export { fnv1a32, nameSuffixAlphabet, Rng, type RngState } from './rng.ts';
export { civilFromDays, defaultEpochMs, hour, millisecond, minute, roundToMicros, second, type Duration, type Time } from './time.ts';
export { Trace, traceHash } from './trace.ts';
