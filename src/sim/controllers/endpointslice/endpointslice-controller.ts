// The endpointslice controller: for every Service with a selector, EndpointSlices named `<service>-<5
// random chars>` (generateName), owned by the Service, labelled with its name and this controller, list
// the selected Pods — one endpoint per Pod with its IP, node, Pod reference and the ready / serving /
// terminating conditions — one slice per distinct set of resolved ports. A Service with no Pods gets one
// placeholder slice without endpoints or ports. Slices of a deleted Service go with it (the garbage
// collector follows the owner reference). `kubernetes` has no selector: kube-apiserver writes its slice.
// Models k8s pkg/controller/endpointslice/endpointslice_controller.go (syncService, onPod*/onService*)
// and staging/src/k8s.io/endpointslice (reconciler.go reconcileByAddressType, utils.go newEndpointSlice,
// podToEndpoint, getEndpointPorts, placeholder slices). Not modelled: the 100-endpoint slice cap,
// topology hints, zones, EndpointSlice mirroring of selector-less Services' Endpoints.

import { isStatusError } from '../../api/errors.ts';
import type { Pod } from '../../api/types/core.ts';
import type { EndpointSlice, Service, SliceEndpoint, SlicePort } from '../../api/types/service.ts';
import { deepEqual } from '../../api/json.ts';
import {
  DeletedFinalStateUnknown, metaNamespaceKey, RateLimitingQueue, runWorkers, syncOrRequeue, splitMetaNamespaceKey, type ResourceClient, type SharedIndexInformer,
} from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { isPodReady } from '../controller-utils.ts';
import {
  findPort, headlessServiceLabel, lastChangeTriggerTimeAnnotation, podServiceKeys, selectedPods, shouldPodBeInEndpoints, TriggerTimeTracker,
} from '../endpoint/endpoints-controller.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const managedByValue = 'endpointslice-controller.k8s.io';

export class EndpointSliceController {
  readonly serviceInformer: SharedIndexInformer<Service>;
  readonly podInformer: SharedIndexInformer<Pod>;
  readonly sliceInformer: SharedIndexInformer<EndpointSlice>;
  readonly queue: RateLimitingQueue;
  private readonly slices: ResourceClient<EndpointSlice>;
  private readonly triggerTimes = new TriggerTimeTracker();

  constructor(private readonly ctx: ControllerContext) {
    this.serviceInformer = ctx.informers.informerFor<Service>('services');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    this.sliceInformer = ctx.informers.informerFor<EndpointSlice>('endpointslices', 'discovery.k8s.io');
    this.slices = ctx.client.resource<EndpointSlice>('endpointslices', 'discovery.k8s.io');
    this.queue = new RateLimitingQueue(ctx.host, 'endpoint_slice');
    const enqueue = (obj: Service | DeletedFinalStateUnknown<Service>) => this.queue.add(metaNamespaceKey(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj));
    this.serviceInformer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, svc) => enqueue(svc), onDelete: enqueue });
    const podChanged = (pods: readonly Pod[]) => {
      const services = this.serviceInformer.list();
      for (const key of new Set(pods.flatMap((p) => podServiceKeys(services, p)))) this.queue.add(key);
    };
    this.podInformer.addEventHandler({
      onAdd: (pod) => podChanged([pod]),
      onUpdate: (old, pod) => podChanged([old, pod]),
      onDelete: (obj) => podChanged([obj instanceof DeletedFinalStateUnknown ? obj.obj : obj]),
    });
    const sliceChanged = (slice: EndpointSlice) => {
      const svc = slice.metadata.labels?.[serviceNameLabel];
      if (svc && slice.metadata.labels?.[managedByLabel] === managedByValue) this.queue.add(`${slice.metadata.namespace ?? ''}/${svc}`);
    };
    this.sliceInformer.addEventHandler({
      onUpdate: (_old, slice) => sliceChanged(slice),
      onDelete: (obj) => sliceChanged(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
    });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (key) => syncOrRequeue(this.queue, key, (k) => this.syncService(k)));
  }

  private *syncService(key: string): Co<void> {
    const [namespace, name] = splitMetaNamespaceKey(key);
    const svc = this.serviceInformer.get(namespace, name);
    if (!svc) {
      this.triggerTimes.delete(key);
      return;
    }
    if (svc.spec?.type === 'ExternalName' || svc.spec?.selector === undefined) return;
    const pods = selectedPods(this.podInformer.list(namespace), svc);
    const publishNotReady = svc.spec.publishNotReadyAddresses ?? false;
    // Desired endpoints grouped by their resolved ports.
    const groups = new Map<string, { ports: SlicePort[]; endpoints: SliceEndpoint[] }>();
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports: SlicePort[] = [];
      for (const sp of svc.spec.ports ?? []) {
        const port = findPort(pod, sp);
        if (port === null) continue;
        ports.push({ name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
      }
      const terminating = pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
      const serving = isPodReady(pod);
      const endpoint: SliceEndpoint = {
        addresses: [pod.status!.podIP!],
        conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
        targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
        ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      };
      const k = JSON.stringify(ports);
      let g = groups.get(k);
      if (!g) groups.set(k, g = { ports, endpoints: [] });
      g.endpoints.push(endpoint);
    }
    for (const g of groups.values()) g.endpoints.sort((a, b) => (a.addresses[0]! < b.addresses[0]! ? -1 : 1));
    const triggerTime = this.triggerTimes.compute(key, svc, pods);
    const existing = this.sliceInformer.list(namespace)
      .filter((s) => s.metadata.labels?.[serviceNameLabel] === name && s.metadata.labels?.[managedByLabel] === managedByValue)
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const labels: Record<string, string> = { ...svc.metadata.labels, [serviceNameLabel]: name, [managedByLabel]: managedByValue };
    if (svc.spec.clusterIP === 'None') labels[headlessServiceLabel] = '';
    const annotations = (current?: EndpointSlice): Record<string, string> | undefined => {
      const a: Record<string, string> = { ...current?.metadata.annotations };
      if (triggerTime !== '') a[lastChangeTriggerTimeAnnotation] = triggerTime;
      return Object.keys(a).length > 0 ? a : undefined;
    };
    // With no endpoints, one placeholder slice.
    const desired = groups.size > 0 ? [...groups.values()] : [{ ports: null, endpoints: null }];
    const unused = [...existing];
    for (const want of desired) {
      const wantPorts = want.ports as SlicePort[] | null;
      const wantEndpoints = want.endpoints as SliceEndpoint[] | null;
      const matchIndex = unused.findIndex((s) => deepEqual(s.ports ?? null, wantPorts));
      const match = matchIndex >= 0 ? unused.splice(matchIndex, 1)[0]! : unused.shift();
      if (match) {
        if (deepEqual(match.ports ?? null, wantPorts) && deepEqual(match.endpoints ?? null, wantEndpoints) && deepEqual(match.metadata.labels ?? {}, labels)) continue;
        const a = annotations(match);
        yield* this.slices.update({
          ...match, metadata: { ...match.metadata, labels, ...(a ? { annotations: a } : {}) }, endpoints: wantEndpoints, ports: wantPorts,
        });
      } else {
        const a = annotations();
        yield* this.slices.create(namespace, {
          apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
          metadata: {
            generateName: `${name}-`, namespace, labels, ...(a ? { annotations: a } : {}),
            ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
          },
          addressType: 'IPv4', endpoints: wantEndpoints, ports: wantPorts,
        });
      }
    }
    for (const stale of unused) {
      try {
        yield* this.slices.delete(namespace, stale.metadata.name ?? '');
      } catch (err) {
        if (!isStatusError(err) || err.status.code !== 404) throw err;
      }
    }
  }
}
