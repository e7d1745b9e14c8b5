// Table responses for `kubectl get`: asked for with `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
// Each row carries a PartialObjectMetadata by default, the whole object with includeObject=Object,
// nothing with None. Resources without their own printer use the default convertor (Name, Created At).
// Models k8s.io/apiserver/pkg/registry/rest/table.go (defaultTableConvertor) and
// pkg/endpoints/handlers/response.go (transformObject, asTable).

import type { ResourceInfo } from '../api/resources.ts';
import type { KubeObject, Table, TableRow } from '../api/types/meta.ts';
import type { HttpRequest } from './http.ts';

export function wantsTable(request: HttpRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io');
  });
}

const swaggerMetadataDescriptions = {
  name: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names',
  creationTimestamp: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

export function tableFor(_r: ResourceInfo, items: readonly KubeObject[], resourceVersion: string, query: Map<string, string>, _ctx: unknown): Table {
  const include = query.get('includeObject') ?? 'Metadata';
  const rows: TableRow[] = items.map((obj) => {
    const row: TableRow = { cells: [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? null] };
    if (include === 'Object') row.object = obj;
    else if (include !== 'None') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: swaggerMetadataDescriptions.name, priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: swaggerMetadataDescriptions.creationTimestamp, priority: 0 },
    ],
    rows,
  };
}
