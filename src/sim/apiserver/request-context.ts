// The context kube-apiserver hands the registry with each request: the user and namespace, the seeded
// RNG and virtual time, the admission chain with its namespace lister, the field manager, and how a
// pipeline stage becomes a step of its own (an `apiserver.<stage>` message with a `StagePayload`).
// The namespace lister is kept current by every committed namespace write; on a shared etcd a miss is
// read from storage (a namespace another kube-apiserver created).
// Models k8s.io/apiserver/pkg/endpoints/request/context.go (WithUser, WithNamespace) as the handlers'
// RequestScope fills it, and plugin/pkg/admission/namespace/lifecycle/admission.go (namespaceLister with
// its live lookup).

import { StatusError } from '../api/errors.ts';
import type { Namespace } from '../api/types/core.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Co, Rng, Time } from '../engine/index.ts';
import type { AdmissionChain, AdmissionContext } from './admission/admission.ts';
import type { UserInfo } from './filters/authentication.ts';
import type { GenericStore, RegistryContext } from './registry/generic-store.ts';
import type { StageDetails, StageName, StagePayload } from '../messages/index.ts';

/** kube-apiserver's own user, for what it stores itself. */
export const systemUser: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

export interface RequestContextsConfig {
  readonly admission: AdmissionChain;
  /** Virtual time each filter or registry stage takes, ms. */
  readonly stageDelay: number;
  /** Other kube-apiservers may write to this etcd: a namespace not seen is read from storage. */
  readonly shared: boolean;
  readonly rng: () => Rng;
  readonly now: () => Time;
  readonly epochMs: () => number;
  /** Component.stage: sends `kind` to the component itself and resumes when it is delivered (after `delay`). */
  readonly stage: (kind: `apiserver.${StageName}`, payload: StagePayload, delay: number) => Co<unknown>;
  readonly namespaces: () => GenericStore;
}

/** Each stage's message kind made once (the trace keeps it in every stage's record). */
const stageKinds = new Map<StageName, `apiserver.${StageName}`>();
function stageKind(stage: StageName): `apiserver.${StageName}` {
  let kind = stageKinds.get(stage);
  if (kind === undefined) stageKinds.set(stage, kind = `apiserver.${stage}`);
  return kind;
}

export class RequestContexts {
  /** The namespace lister admission reads. */
  private readonly namespaces = new Map<string, Namespace>();

  constructor(private readonly config: RequestContextsConfig) {}

  context(user: UserInfo, namespace: string, requestId: number | null, fieldManager: string): RegistryContext {
    const rng = this.config.rng();
    const admissionContext: AdmissionContext = {
      rng,
      getNamespace: (name) => this.lookupNamespace(name),
    };
    return {
      user,
      namespace,
      rng,
      now: this.config.now(),
      epochMs: this.config.epochMs(),
      admission: this.config.admission,
      admissionContext,
      fieldManager,
      stage: (name, detail) => this.stage(requestId, name, detail),
    };
  }

  /** Makes a filter's or the registry's stage a step of its own. */
  *stage<S extends StageName>(requestId: number | null, stage: S, detail: StageDetails[S]): Co<void> {
    const payload = { requestId, stage, ...detail } as StagePayload;
    yield* this.config.stage(stageKind(stage), payload, this.config.stageDelay);
  }

  /** Keeps the namespace lister current with a committed namespace write. */
  observeNamespace(obj: KubeObject, deleted: boolean): void {
    if (deleted) this.namespaces.delete(obj.metadata.name ?? '');
    else this.namespaces.set(obj.metadata.name ?? '', obj as Namespace);
  }

  /** The namespace lister, and on a miss (on a shared etcd) a live read. */
  private *lookupNamespace(name: string): Co<Namespace | null> {
    const known = this.namespaces.get(name);
    if (known !== undefined || !this.config.shared) return known ?? null;
    try {
      const ns = (yield* this.config.namespaces().get(this.context(systemUser, '', null, 'kube-apiserver'), name, '')) as Namespace;
      this.namespaces.set(name, ns);
      return ns;
    } catch (err) {
      if (!(err instanceof StatusError) || err.status.reason !== 'NotFound') throw err;
      return null;
    }
  }
}
