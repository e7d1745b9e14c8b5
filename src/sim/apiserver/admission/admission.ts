// Admission: after authorization and before storage, each enabled plugin may mutate the object (in
// the order kube-apiserver 1.28 runs them), then the validating ones may reject it. A rejection is a
// StatusError thrown by the plugin; every plugin's decision is recorded for the trace.
// Models k8s.io/apiserver/pkg/admission (Attributes, MutationInterface, ValidationInterface) and the
// plugin order of k8s pkg/kubeapiserver/options/plugins.go.

import type { ResourceInfo } from '../../api/resources.ts';
import type { Namespace } from '../../api/types/core.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co, Rng } from '../../engine/index.ts';
import type { UserInfo } from '../filters/authentication.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly resource: ResourceInfo;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The object being admitted (mutating plugins change it in place); null for DELETE. */
  readonly object: KubeObject | null;
  readonly oldObject: KubeObject | null;
  readonly user: UserInfo;
}

/** What plugins may ask of the apiserver while they decide. */
export interface AdmissionContext {
  readonly rng: Rng;
  /** The namespace object, or null when it does not exist (a live lookup through storage). */
  getNamespace(name: string): Co<Namespace | null>;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase: may change `attrs.object`. Returns a one-line note of what it did, for the trace. */
  admit?(attrs: AdmissionAttributes, ctx: AdmissionContext): Co<string>;
  /** Validating phase: may only reject. */
  validate?(attrs: AdmissionAttributes, ctx: AdmissionContext): Co<string>;
}

export interface AdmissionDecision {
  readonly plugin: string;
  readonly phase: 'mutating' | 'validating';
  readonly note: string;
}

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  *admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Co<AdmissionDecision[]> {
    const decisions: AdmissionDecision[] = [];
    for (const p of this.plugins) {
      if (p.admit) decisions.push({ plugin: p.name, phase: 'mutating', note: yield* p.admit(attrs, ctx) });
    }
    return decisions;
  }

  *validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Co<AdmissionDecision[]> {
    const decisions: AdmissionDecision[] = [];
    for (const p of this.plugins) {
      if (p.validate) decisions.push({ plugin: p.name, phase: 'validating', note: yield* p.validate(attrs, ctx) });
    }
    return decisions;
  }
}
