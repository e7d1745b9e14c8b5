// DefaultBinder (Bind): POSTs a v1 Binding of the pod to its node to `pods/<name>/binding`.
// Models pkg/scheduler/framework/plugins/defaultbinder/default_binder.go.

import { isStatusError } from '../../../api/errors.ts';
import type { Binding } from '../../../api/types/core.ts';
import type { ResourceClient } from '../../../client/index.ts';
import type { Co } from '../../../engine/index.ts';
import type { BindPlugin, PluginFailure } from '../interface.ts';

/** The binder of pods through `bindings`, the pods resource's client typed by the body it POSTs. */
export function defaultBinder(bindings: ResourceClient<Binding>): BindPlugin {
  return {
    name: 'DefaultBinder',
    *bind(_state, pod, nodeName): Co<PluginFailure> {
      const binding: Binding = {
        apiVersion: 'v1', kind: 'Binding',
        metadata: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default', uid: pod.metadata.uid ?? '' },
        target: { kind: 'Node', name: nodeName },
      };
      try {
        yield* bindings.create(pod.metadata.namespace, binding, { subresource: 'binding' });
      } catch (err) {
        if (!isStatusError(err)) throw err;
        return { code: 'Error', message: err.message };
      }
      return null;
    },
  };
}
