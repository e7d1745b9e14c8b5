// ComponentStatus (v1, deprecated since 1.19 and still served by 1.28): `kubectl get componentstatuses`
// (`cs`). Nothing is stored: each GET or LIST probes, then and there, kube-scheduler's and
// kube-controller-manager's /healthz (HTTPS on 127.0.0.1:10259 and :10257, their default secure ports,
// which is why the answer is only right where they run beside kube-apiserver) and etcd (a Range of the
// key `health`, outside the /registry prefix), and answers with one Healthy condition per component.
// Every answer carries the deprecation Warning kubectl prints.
// Models pkg/registry/core/componentstatus/rest.go (List, Get, getComponentStatus, ToConditionStatus),
// validator.go (HttpServer and EtcdServer DoServerCheck), pkg/probe/http/http.go (DoHTTPProbe),
// pkg/registry/core/rest/storage_core.go (componentStatusStorage.serversToValidate: one etcd entry per
// storage config, `etcd-0` for a single --etcd-servers list), the etcd3 prober of
// k8s.io/apiserver/pkg/storage/storagebackend/factory/etcd3.go and the deprecation warning of
// k8s.io/apiserver/pkg/endpoints/deprecation.
// Not modelled: upstream probes every component at once (a goroutine each) and lists them in Go's map order,
// so kubectl's rows come in any order; here they are probed one after another and listed scheduler,
// controller-manager, etcd-0. The probes' 20 s timeout (a stopped component refuses at once here).

import { newPlainServerError } from '../api/errors.ts';
import { apiVersionOf, listKindOf, type ResourceInfo } from '../api/resources.ts';
import type { ComponentCondition, ComponentStatus } from '../api/types/core.ts';
import type { Co } from '../engine/index.ts';
import type { RpcError } from '../etcd/index.ts';
import type { HttpRequest, HttpResponse } from '../wire/http.ts';
import { newNotAcceptable406, internalPackage, selectionPredicate, withoutTypeMeta } from './request-scope.ts';
import { predicateMatches } from './storage/predicate.ts';
import { warningHeader } from './request-body.ts';
import { conversionOf, partialObjectMetadata, partialObjectMetadataList, tableFor } from './table.ts';

/** How the apiserver reaches what it probes. */
export interface ComponentProbes {
  /** Sends `request` to `component`; `error` when nothing answers there (its process is stopped or unlinked). */
  http(component: string, request: HttpRequest): Co<{ readonly response: HttpResponse } | { readonly error: string }>;
  /** etcd's health check: null when the Range of `health` was answered, else etcd's error. */
  etcd(): Co<RpcError | null>;
}

interface HttpServer {
  readonly name: string;
  /** The model's component that listens there. */
  readonly component: string;
  readonly port: number;
}

/** kube-controller-manager's and kube-scheduler's default secure ports (ports.KubeControllerManagerPort, DefaultKubeSchedulerPort). */
const httpServers: readonly HttpServer[] = [
  { name: 'scheduler', component: 'kube-scheduler', port: 10259 },
  { name: 'controller-manager', component: 'kube-controller-manager', port: 10257 },
];
const etcdServerName = 'etcd-0';
/** Every name probed, in the order a list shows them. */
const probedNames: readonly string[] = [...httpServers.map((s) => s.name), etcdServerName];

/** deprecation.go's message for a kind deprecated in 1.19 with no removal release and no replacement. */
const componentStatusDeprecation = 'v1 ComponentStatus is deprecated in v1.19+';

/** The probe's request, as pkg/probe/http's NewProbeRequest builds it. */
function probeRequest(server: HttpServer): HttpRequest {
  return {
    method: 'GET', path: '/healthz', query: '',
    headers: { host: `127.0.0.1:${server.port}`, 'user-agent': 'kube-probe/1.28', accept: '*/*' },
    body: '',
  };
}

function condition(status: 'True' | 'False' | 'Unknown', message: string, error: string): ComponentCondition {
  return { type: 'Healthy', status, ...(message !== '' ? { message } : {}), ...(error !== '' ? { error } : {}) };
}

/** A Go error's text for an etcd client error (clientv3 gives etcdserver's own errors as they are). */
function clientErrorText(error: RpcError): string {
  return error.message.startsWith('etcdserver: ') ? error.message : `rpc error: code = ${error.codeName} desc = ${error.message}`;
}

function* probe(name: string, probes: ComponentProbes): Co<ComponentStatus> {
  const status = (c: ComponentCondition): ComponentStatus => ({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name, creationTimestamp: null } as ComponentStatus['metadata'], conditions: [c] });
  if (name === etcdServerName) {
    const error = yield* probes.etcd();
    return status(error === null ? condition('True', 'ok', '') : condition('False', '', `error getting data from etcd: ${clientErrorText(error)}`));
  }
  const server = httpServers.find((s) => s.name === name)!;
  const url = `https://127.0.0.1:${server.port}/healthz`;
  const answer = yield* probes.http(server.component, probeRequest(server));
  // DoHTTPProbe: a transport error is a Failure whose message is the error; a status of 400 or more a
  // Failure naming it; anything else a Success whose message is the body.
  if ('error' in answer) return status(condition('False', `Get "${url}": dial tcp 127.0.0.1:${server.port}: ${answer.error}`, ''));
  const body = typeof answer.response.body === 'string' ? answer.response.body : JSON.stringify(answer.response.body);
  if (answer.response.status >= 400) return status(condition('False', `HTTP probe failed with statuscode: ${answer.response.status}`, ''));
  return status(condition('True', body, ''));
}

/** GET or LIST of componentstatuses (the route has already checked the verb). */
export function* handleComponentStatuses(http: HttpRequest, query: Map<string, string>, r: ResourceInfo, name: string, verb: string, nowMs: number, probes: ComponentProbes): Co<HttpResponse> {
  const headers = { 'content-type': 'application/json', ...warningHeader([componentStatusDeprecation]) };
  const convert = conversionOf(http);
  if (verb === 'get') {
    // rest.go Get: a name it does not probe is a plain error, which the handler answers as a 500.
    if (!probedNames.includes(name)) throw newPlainServerError(`Component not found: ${name}`);
    const status = yield* probe(name, probes);
    if (convert?.kind === 'Table') return { status: 200, headers, body: tableFor(r, [status], {}, query, nowMs, convert.version) };
    if (convert?.kind === 'PartialObjectMetadata') return { status: 200, headers, body: partialObjectMetadata(status, convert.version) };
    if (convert?.kind === 'PartialObjectMetadataList') throw newNotAcceptable406(`you requested PartialObjectMetadataList, but the requested object is not a list (*${internalPackage(r)}.${r.kind})`);
    return { status: 200, headers, body: status };
  }
  const items: ComponentStatus[] = [];
  for (const probed of probedNames) items.push(yield* probe(probed, probes));
  // rest.go List filters by the request's label and field selectors (ComponentStatus has no labels: a
  // label selector that asks for one leaves nothing).
  const predicate = selectionPredicate(r, query);
  const kept = items.filter((i) => predicateMatches(predicate, i));
  if (convert?.kind === 'Table') return { status: 200, headers, body: tableFor(r, kept, {}, query, nowMs, convert.version) };
  if (convert?.kind === 'PartialObjectMetadataList') return { status: 200, headers, body: partialObjectMetadataList(kept, {}, convert.version) };
  if (convert?.kind === 'PartialObjectMetadata') throw newNotAcceptable406(`you requested PartialObjectMetadata, but the requested object is a list (*${internalPackage(r)}.${listKindOf(r)})`);
  return { status: 200, headers, body: { kind: listKindOf(r), apiVersion: apiVersionOf(r), metadata: {}, items: kept.map(withoutTypeMeta) } };
}
