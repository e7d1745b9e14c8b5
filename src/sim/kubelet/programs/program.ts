// What a modelled container process is: a generator of steps (print a line, sleep, serve forever) that
// returns its exit code, run against what it sees of its container. The step helpers every program
// family uses, and the honest answer for a command Podflow does not model.

import type { ImageConfig } from '../image-registry.ts';

export type ProgramStep =
  | { readonly kind: 'print'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly kind: 'sleep'; readonly ms: number }
  /** Runs until stopped, serving what the image serves. */
  | { readonly kind: 'serve' };

export type Program = Generator<ProgramStep, number, void>;

/** What a process sees of its container. */
export interface ContainerContext {
  readonly podName: string;
  readonly podIP: string;
  readonly image: ImageConfig;
  /** The container's environment, image env first, then the pod spec's (later wins). */
  readonly env: readonly (readonly [string, string])[];
  /** The container's files: the image's, plus what its processes wrote (touch, mkdir), minus what they removed. */
  readonly files: Map<string, string>;
  /** Wall-clock ms now (the engine's epoch + virtual time). */
  now(): number;
  /** CPUs of the node (nginx starts one worker each). */
  readonly cpus: number;
  /** What an exec's client sent on stdin (a byte string), all of it; absent when stdin is not attached. */
  readonly stdin?: string;
}

/** A command not modelled: the honest answer. */
export function notModelled(argv: readonly string[]): string {
  return `podflow: "${argv.join(' ')}" is not modelled in Podflow (modelled: ls, cat, env, hostname, echo, sleep, date, touch, rm, nginx -v, sh -c '…')\n`;
}

export function stdout(text: string): ProgramStep {
  return { kind: 'print', stream: 'stdout', text };
}

export function stderr(text: string): ProgramStep {
  return { kind: 'print', stream: 'stderr', text };
}

/** busybox and alpine word their errors as busybox does. */
export function busyboxLike(ctx: ContainerContext): boolean {
  return ctx.image.repository.endsWith('/busybox') || ctx.image.repository.endsWith('/alpine');
}
