// Waiting on a condition in tests that drive outside processes (etcd, kubectl, the server): never a fixed
// sleep, a check polled until it holds or the wall-clock deadline passes.

export interface UntilOptions {
  /** Give up after this many milliseconds (default 10 s). */
  readonly timeoutMs?: number;
  /** Check again after this many milliseconds (default 20). */
  readonly everyMs?: number;
}

/** Resolves once `check` holds; rejects with "timed out waiting for <what>" after the timeout. */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: UntilOptions = {}): Promise<void> {
  const { timeoutMs = 10_000, everyMs = 20 } = options;
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
