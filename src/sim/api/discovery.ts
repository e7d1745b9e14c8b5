// Discovery documents built from the resource table: legacy `/api`, `/apis`, `/api/v1` and
// `/apis/<group>/<version>`, and the aggregated APIGroupDiscoveryList kubectl fetches in two requests.
// Key order and omitted fields follow the Go structs' JSON encoding.
// Models k8s.io/apimachinery/pkg/apis/meta/v1/types.go (APIVersions, APIGroupList, APIResourceList),
// k8s.io/api/apidiscovery/v2beta1/types.go and apiserver pkg/endpoints/discovery (aggregated).

import { apiVersionOf, resourcesOf, servedGroups, type ResourceInfo, type Verb } from './resources.ts';

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: { clientCIDR: string; serverAddress: string }[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/** `GET /api`: the core versions and the address clients should use. */
export function legacyAPIVersions(serverAddress: string): APIVersions {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/** `GET /apis`: every named group with its versions, the first being preferred. */
export function apiGroupList(): APIGroupList {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups.filter((g) => g.group !== '').map((g) => {
      const versions = g.versions.map((version) => ({ groupVersion: `${g.group}/${version}`, version }));
      return { name: g.group, versions, preferredVersion: versions[0]! };
    }),
  };
}

/** `GET /api/v1`, `GET /apis/apps/v1`: each resource then each of its subresources, sorted by name. */
export function apiResourceList(group: string, version: string): APIResourceList | undefined {
  if (!servedGroups.some((g) => g.group === group && g.versions.includes(version))) return undefined;
  const resources: APIResource[] = [];
  for (const r of resourcesOf(group, version)) {
    const top: APIResource = { name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: [...r.verbs] };
    if (r.shortNames.length > 0) top.shortNames = [...r.shortNames];
    if (r.categories.length > 0) top.categories = [...r.categories];
    if (r.storageVersionHash !== '') top.storageVersionHash = r.storageVersionHash;
    resources.push(top);
    for (const s of r.subresources) {
      const sub: Omit<APIResource, 'kind' | 'verbs'> = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced };
      // Group and version are shown only when the subresource's kind lives elsewhere (Scale).
      if (s.kind.group !== r.group || s.kind.version !== r.version) {
        sub.group = s.kind.group;
        sub.version = s.kind.version;
      }
      resources.push({ ...sub, kind: s.kind.kind, verbs: [...s.verbs] });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

/** The aggregated discovery API versions a client may ask for; 1.28 serves v2beta1, kubectl ≥ 1.30 prefers v2. */
export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';

export interface DiscoveryGroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: DiscoveryGroupVersionKind;
  verbs: Verb[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: DiscoveryGroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: `apidiscovery.k8s.io/${AggregatedDiscoveryVersion}`;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

/** The Content-Type an aggregated discovery response must carry, or kubectl silently sees no resources. */
export function aggregatedDiscoveryContentType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

function resourceDiscovery(r: ResourceInfo): APIResourceDiscovery {
  const d: APIResourceDiscovery = {
    resource: r.resource,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length > 0) d.shortNames = [...r.shortNames];
  if (r.categories.length > 0) d.categories = [...r.categories];
  if (r.subresources.length > 0) {
    d.subresources = r.subresources.map((s) => ({ subresource: s.name, responseKind: { ...s.kind }, verbs: [...s.verbs] }));
  }
  return d;
}

/**
 * `GET /api` (`legacy` true: one item, no name) or `GET /apis` (one item per named group) as an
 * aggregated APIGroupDiscoveryList.
 */
export function aggregatedDiscovery(legacy: boolean, version: AggregatedDiscoveryVersion): APIGroupDiscoveryList {
  const groups = servedGroups.filter((g) => (g.group === '') === legacy);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: legacy ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({ version: v, resources: resourcesOf(g.group, v).map(resourceDiscovery), freshness: 'Current' as const })),
    })),
  };
}
