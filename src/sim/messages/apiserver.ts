// kube-apiserver's own steps: each filter and registry stage a request passes is a message the server
// sends itself (`apiserver.authentication`, …, `apiserver.registry.strategy`), carrying what it decided;
// and a read at a resourceVersion the watch cache has not reached waits for the cacher's answer.

import type { Operation } from '../apiserver/admission/admission.ts';
import type { WaitForCache, WaitForCacheResponse } from '../apiserver/storage/ready.ts';

/** What each stage records besides the request and the stage's name. */
export interface StageDetails {
  authentication:
    | { readonly user: string; readonly groups: readonly string[]; readonly decision: 'authenticated' }
    | { readonly decision: 'rejected: invalid bearer token' };
  audit: { readonly auditID: string; readonly auditStage: 'RequestReceived' };
  impersonation: { readonly user: string; readonly as: string; readonly decision: 'allowed' | 'forbidden' };
  'max-in-flight': { readonly decision: 'admitted' | 'rejected: too many requests'; readonly readOnly: number; readonly mutating: number };
  authorization: {
    readonly user: string; readonly verb: string; readonly resource: string; readonly namespace: string;
    readonly decision: 'allowed' | 'forbidden'; readonly reason: string;
  };
  'admission.mutating': { readonly operation: Operation; readonly decisions: readonly string[] };
  'admission.validating': { readonly operation: Operation; readonly decisions: readonly string[] };
  /** `step` names the strategy hook: PrepareForCreate, Validate, … */
  'registry.strategy': { readonly strategy: string; readonly step: string; readonly name: string; readonly uid: string };
}

export type StageName = keyof StageDetails;
/** The stages the generic registry runs (the rest are the filter chain's). */
export type RegistryStageName = 'admission.mutating' | 'admission.validating' | 'registry.strategy';

/** The payload of every `apiserver.<stage>` message: which request, which stage, what it decided. */
export type StagePayload<S extends StageName = StageName> = S extends StageName
  ? { readonly requestId: number | null; readonly stage: S } & StageDetails[S]
  : never;

export type ApiserverMessages =
  & { [S in StageName as `apiserver.${S}`]: StagePayload<S> }
  & {
    'apiserver.waitForCache': WaitForCache;
    'apiserver.waitForCacheResponse': WaitForCacheResponse;
  };
