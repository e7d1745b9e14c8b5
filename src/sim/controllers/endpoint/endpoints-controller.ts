// The endpoints controller: for every Service with a selector, an Endpoints object of the same name lists
// the selected Pods' IPs — ready ones under `addresses`, others under `notReadyAddresses` — with each
// Service port resolved against the Pod (a named targetPort is looked up among its container ports).
// Services without a selector (such as `kubernetes`, whose Endpoints kube-apiserver writes itself) and
// ExternalName Services are left alone. A deleted Service's Endpoints are deleted.
// Models k8s pkg/controller/endpoint/endpoints_controller.go (addPod/updatePod/deletePod via
// GetPodServiceMemberships, syncService, addEndpointSubset, the last-change-trigger-time annotation),
// pkg/api/v1/endpoints/util.go (RepackSubsets, SortSubsets), pkg/api/v1/pod/util.go (FindPort) and
// staging/src/k8s.io/endpointslice/util (ShouldPodBeInEndpoints, TriggerTimeTracker).
// Not modelled: pod hostnames/subdomains in addresses, the over-capacity annotation (1000 addresses).

import { isStatusError } from '../../api/errors.ts';
import { matchesLabels, selectorFromSet } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import type { EndpointAddress, EndpointPort, Endpoints, EndpointSubset, Service, ServicePort } from '../../api/types/service.ts';
import { deepEqual } from '../../api/json.ts';
import {
  DeletedFinalStateUnknown, metaNamespaceKey, RateLimitingQueue, runWorkers, syncOrRequeue, splitMetaNamespaceKey, type ResourceClient, type SharedIndexInformer,
} from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { isPodReady } from '../controller-utils.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';

export const lastChangeTriggerTimeAnnotation = 'endpoints.kubernetes.io/last-change-trigger-time';
export const headlessServiceLabel = 'service.kubernetes.io/headless';

/** ShouldPodBeInEndpoints: not terminal, has an IP, and (unless terminating pods are wanted) not being deleted. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** FindPort: a numeric targetPort as is; a named one from the pod's container ports (same protocol). */
export function findPort(pod: Pod, port: ServicePort): number | null {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  }
  return null;
}

/** The services of `pod`'s namespace whose selector matches its labels (GetPodServiceMemberships). */
export function podServiceKeys(services: readonly Service[], pod: Pod): string[] {
  return services
    .filter((s) => s.metadata.namespace === pod.metadata.namespace && s.spec?.selector !== undefined && Object.keys(s.spec.selector).length > 0)
    .filter((s) => matchesLabels(selectorFromSet(s.spec!.selector!), pod.metadata.labels))
    .map((s) => metaNamespaceKey(s));
}

/** The pods a service selects (its namespace, its selector). */
export function selectedPods(pods: readonly Pod[], svc: Service): Pod[] {
  const selector = selectorFromSet(svc.spec?.selector ?? {});
  return pods.filter((p) => p.metadata.namespace === svc.metadata.namespace && matchesLabels(selector, p.metadata.labels));
}

/** A pod's trigger time: its Ready condition's last transition (getPodTriggerTime), else its creation. */
export function podTriggerTime(pod: Pod): string {
  return pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? pod.metadata.creationTimestamp ?? '';
}

/**
 * TriggerTimeTracker.ComputeEndpointLastChangeTriggerTime: the earliest trigger time among the pods and
 * the service that changed since the service's last sync ('' when none did).
 */
export class TriggerTimeTracker {
  private readonly state = new Map<string, { service: string; pods: Map<string, string> }>();

  compute(key: string, svc: Service, pods: readonly Pod[]): string {
    const prev = this.state.get(key);
    const next = { service: svc.metadata.creationTimestamp ?? '', pods: new Map<string, string>() };
    let min = '';
    const consider = (t: string) => {
      if (t !== '' && (min === '' || t < min)) min = t;
    };
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      next.pods.set(pod.metadata.name ?? '', t);
      if (prev?.pods.get(pod.metadata.name ?? '') !== t) consider(t);
    }
    if (prev?.service !== next.service) consider(next.service);
    this.state.set(key, next);
    return min;
  }

  delete(key: string): void {
    this.state.delete(key);
  }
}

const compareAddresses = (a: EndpointAddress, b: EndpointAddress) =>
  a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : (a.targetRef?.uid ?? '') < (b.targetRef?.uid ?? '') ? -1 : (a.targetRef?.uid ?? '') > (b.targetRef?.uid ?? '') ? 1 : 0;

/** RepackSubsets: one subset per distinct port set, addresses and ports sorted. */
export function repackSubsets(entries: ReadonlyArray<{ address: EndpointAddress; ready: boolean; ports: EndpointPort[] }>): EndpointSubset[] {
  const groups = new Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>();
  for (const e of entries) {
    const ports = [...e.ports].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    const key = JSON.stringify(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, g = { ports, ready: [], notReady: [] });
    const list = e.ready ? g.ready : g.notReady;
    if (!list.some((a) => a.ip === e.address.ip && a.targetRef?.uid === e.address.targetRef?.uid)) list.push(e.address);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => ({
    ...(g.ready.length > 0 ? { addresses: g.ready.sort(compareAddresses) } : {}),
    ...(g.notReady.length > 0 ? { notReadyAddresses: g.notReady.sort(compareAddresses) } : {}),
    ...(g.ports.length > 0 ? { ports: g.ports } : {}),
  }));
}

export class EndpointsController {
  readonly serviceInformer: SharedIndexInformer<Service>;
  readonly podInformer: SharedIndexInformer<Pod>;
  readonly endpointsInformer: SharedIndexInformer<Endpoints>;
  readonly queue: RateLimitingQueue;
  private readonly endpoints: ResourceClient<Endpoints>;
  private readonly triggerTimes = new TriggerTimeTracker();

  constructor(private readonly ctx: ControllerContext) {
    this.serviceInformer = ctx.informers.informerFor<Service>('services');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    this.endpointsInformer = ctx.informers.informerFor<Endpoints>('endpoints');
    this.endpoints = ctx.client.resource<Endpoints>('endpoints');
    this.queue = new RateLimitingQueue(ctx.host, 'endpoint');
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
    this.endpointsInformer.addEventHandler({
      onDelete: (obj) => this.queue.add(metaNamespaceKey(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj)),
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
      try {
        yield* this.endpoints.delete(namespace, name);
      } catch (err) {
        if (!isStatusError(err) || err.status.code !== 404) throw err;
      }
      return;
    }
    if (svc.spec?.type === 'ExternalName' || svc.spec?.selector === undefined) return;
    const pods = selectedPods(this.podInformer.list(namespace), svc);
    const tolerateUnready = svc.spec.publishNotReadyAddresses ?? false;
    const entries: Array<{ address: EndpointAddress; ready: boolean; ports: EndpointPort[] }> = [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
      const address: EndpointAddress = {
        ip: pod.status!.podIP!,
        ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
      };
      const ready = tolerateUnready || isPodReady(pod);
      const servicePorts = svc.spec.ports ?? [];
      if (servicePorts.length === 0) {
        entries.push({ address, ready, ports: [] });
        continue;
      }
      for (const sp of servicePorts) {
        const port = findPort(pod, sp);
        if (port === null) continue;
        entries.push({ address, ready, ports: [{ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) }] });
      }
    }
    const subsets = repackSubsets(entries);
    const triggerTime = this.triggerTimes.compute(key, svc, pods);
    const current = this.endpointsInformer.get(namespace, name);
    const labels: Record<string, string> = { ...svc.metadata.labels };
    if (svc.spec.clusterIP === 'None') labels[headlessServiceLabel] = '';
    if (current && deepEqual(current.subsets ?? [], subsets) && deepEqual(current.metadata.labels ?? {}, labels)) return;
    const annotations: Record<string, string> = { ...current?.metadata.annotations };
    if (triggerTime !== '') annotations[lastChangeTriggerTimeAnnotation] = triggerTime;
    else delete annotations[lastChangeTriggerTimeAnnotation];
    const metadata = {
      ...(current?.metadata ?? { name, namespace }),
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
    const next: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata, ...(subsets.length > 0 ? { subsets } : {}) };
    if (current) yield* this.endpoints.update(next);
    else yield* this.endpoints.create(namespace, next);
  }
}
