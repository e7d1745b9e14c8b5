// Table responses for `kubectl get`: asked for with `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`
// (negotiation.ts decides, q-values and all). The columns and cells are the resource's printer
// (src/sim/api/printers.ts); this builds the Table for a get or a list, and the metadata-only
// conversions (`as=PartialObjectMetadata`, `as=PartialObjectMetadataList`) the metadata clients ask for.
// Models k8s.io/apiserver/pkg/endpoints/handlers/response.go (transformObject, asTable,
// asPartialObjectMetadata, asPartialObjectMetadataList).

import { toTable } from '../api/table-convertor.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { KubeObject, ListMeta, Table } from '../api/types/meta.ts';
import type { HttpRequest } from '../wire/http.ts';
import { negotiateMediaType, type Conversion } from './negotiation.ts';

/** The conversion the Accept header negotiates for a resource endpoint, if any. */
export function conversionOf(request: HttpRequest): Conversion | null {
  return negotiateMediaType(request.headers.accept).convert;
}

/** The Table for `items`; `nowMs` is the wall-clock instant AGE is measured from. */
export function tableFor(r: ResourceInfo, items: readonly KubeObject[], listMeta: ListMeta, query: Map<string, string>, nowMs: number, version = 'v1', noHeaders = false): Table {
  const table = toTable(r, items, listMeta, nowMs, { includeObject: query.get('includeObject') ?? '', noHeaders });
  if ('kind' in table && table.kind === 'Table') return version === 'v1' ? table : { ...table, apiVersion: `meta.k8s.io/${version}` } as unknown as Table;
  throw table;
}

/** An object's metadata alone, as `PartialObjectMetadata`. */
export function partialObjectMetadata(obj: KubeObject, version = 'v1'): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

/** A list's items' metadata, as `PartialObjectMetadataList`. */
export function partialObjectMetadataList(items: readonly KubeObject[], listMeta: ListMeta, version = 'v1'): unknown {
  return { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${version}`, metadata: listMeta, items: items.map((i) => partialObjectMetadata(i, version)) };
}
