// The Table a get or list answers with when asked for one (`Accept: application/json;as=Table;v=v1;
// g=meta.k8s.io`): the printers' columns and cells (printers.ts), each row carrying the full object,
// its PartialObjectMetadata or nothing, as includeObject says.
// Models k8s.io/apiserver/pkg/registry/rest/table.go and pkg/endpoints/handlers/response.go (asTable).

import { newBadRequest, type StatusError } from './errors.ts';
import { tableColumns, tableRowCells } from './printers.ts';
import { apiVersionOf, type ResourceInfo } from './resources.ts';
import type { KubeObject, ListMeta, Table, TableRow } from './types/meta.ts';

export interface TableOptions {
  /** What each row carries: the full object, PartialObjectMetadata (the default), or nothing. */
  readonly includeObject?: string;
  /** Leave columnDefinitions null (the apiserver's TableOptions.NoHeaders). */
  readonly noHeaders?: boolean;
}

/**
 * The Table answering a get (one object) or list (several, with the list's metadata) asked with
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. An unknown includeObject is the 400
 * `unrecognized includeObject value: "x"`.
 */
export function toTable(r: ResourceInfo, objects: readonly KubeObject[], listMeta: ListMeta, nowMs: number, options: TableOptions = {}): Table | StatusError {
  const include = options.includeObject ?? '';
  if (!['Object', 'Metadata', 'None', ''].includes(include)) return newBadRequest(`unrecognized includeObject value: "${include}"`);
  const rows: TableRow[] = objects.map((obj) => {
    const row: TableRow = { ...tableRowCells(r, obj, nowMs) };
    if (include === 'Object') row.object = { kind: r.kind, apiVersion: apiVersionOf(r), ...obj };
    else if (include !== 'None') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
    return row;
  });
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, columnDefinitions: options.noHeaders ? null : tableColumns(r), rows };
}
