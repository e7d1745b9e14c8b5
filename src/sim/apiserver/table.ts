// Table responses for `kubectl get`: asked for with `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
// The columns and cells are the resource's printer (src/sim/api/printers.ts); this decides when a
// Table is wanted and builds it for a get or a list.
// Models k8s.io/apiserver/pkg/endpoints/handlers/response.go (transformObject, asTable).

import { toTable } from '../api/printers.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { KubeObject, ListMeta, Table } from '../api/types/meta.ts';
import type { HttpRequest } from './http.ts';

export function wantsTable(request: HttpRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io');
  });
}

/** The Table for `items`; `nowMs` is the wall-clock instant AGE is measured from. */
export function tableFor(r: ResourceInfo, items: readonly KubeObject[], listMeta: ListMeta, query: Map<string, string>, nowMs: number): Table {
  const table = toTable(r, items, listMeta, nowMs, { includeObject: query.get('includeObject') ?? '' });
  if ('kind' in table && table.kind === 'Table') return table;
  throw table;
}
