export { Component } from './component.ts';
export { awaitReply, broadcast, Condition, sleep, timedOut, waitOn, type Co, type SleepReason } from './coroutine.ts';
export { Engine, type RunResult } from './engine.ts';
export type { Reservation } from './reservations.ts';
export { timerKind, type Message, type TimerPayload } from './message.ts';
export { fnv1a32, nameSuffixAlphabet, Rng } from './rng.ts';
export { hour, jitter, minute, roundToMicros, second, type Duration, type Time } from './time.ts';
export { Trace, traceHash, type PayloadRebuilder } from './trace.ts';
