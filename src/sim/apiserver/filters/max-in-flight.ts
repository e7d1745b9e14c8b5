// Max-in-flight: at most 400 read-only and 200 mutating requests at once; long-running requests
// (watches) are not counted, and system:masters is let through even when the limit is reached.
// Overflow is answered at once with a plain-text 429.
// (kube-apiserver 1.28 runs API Priority and Fairness by default, whose rejection looks the same to a
// client apart from its extra headers; this models the simpler max-in-flight filter.)
// Models k8s.io/apiserver/pkg/server/filters/maxinflight.go (WithMaxInFlightLimit).

import { systemMasters, type UserInfo } from './authentication.ts';

export interface MaxInFlightLimits {
  readonly readOnly: number;
  readonly mutating: number;
}

export const defaultMaxInFlight: MaxInFlightLimits = { readOnly: 400, mutating: 200 };

/** What http.Error writes: the text plus a newline. */
export const tooManyRequestsBody = 'Too many requests, please try again later.\n';

const readOnlyVerbs = new Set(['get', 'list', 'watch']);

export class MaxInFlight {
  private readOnly = 0;
  private mutating = 0;

  constructor(readonly limits: MaxInFlightLimits = defaultMaxInFlight) {}

  get inFlight(): { readonly readOnly: number; readonly mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }

  /** Admits a request: returns a release function, or null when it must be rejected with 429. */
  admit(verb: string, user: UserInfo): (() => void) | null {
    if (verb === 'watch') return () => undefined;
    const readOnly = readOnlyVerbs.has(verb);
    if (readOnly ? this.readOnly >= this.limits.readOnly : this.mutating >= this.limits.mutating) {
      return user.groups.includes(systemMasters) ? () => undefined : null;
    }
    if (readOnly) this.readOnly++;
    else this.mutating++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (readOnly) this.readOnly--;
      else this.mutating--;
    };
  }
}
