// meta.k8s.io/v1 types shared by every object: TypeMeta, ObjectMeta, lists, Status, watch events,
// label selectors, delete options, Tables. Plain JSON-shaped data: optional fields are absent when
// Go would omit them (`omitempty`), so `JSON.stringify` gives the wire shape.
// Models k8s.io/apimachinery/pkg/apis/meta/v1/types.go, meta.go, watch.go.

/** RFC 3339 timestamp with second precision (`metav1.Time`), e.g. `2023-08-15T00:00:05Z`. */
export type Timestamp = string;
/** RFC 3339 timestamp with microsecond precision (`metav1.MicroTime`), e.g. `2023-08-15T00:00:05.123456Z`. */
export type MicroTimestamp = string;

export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export type ManagedFieldsOperation = 'Apply' | 'Update';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: ManagedFieldsOperation;
  apiVersion?: string;
  time?: Timestamp;
  fieldsType?: 'FieldsV1';
  /** The field set in FieldsV1 form: `{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`. */
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** Always serialized: Go writes `null` for a zero time (as in pod templates). */
  creationTimestamp?: Timestamp | null;
  deletionTimestamp?: Timestamp;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Every top-level object: TypeMeta plus ObjectMeta. */
export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
}

/** A `<Kind>List`: `{kind:"PodList", apiVersion:"v1", metadata:{resourceVersion}, items:[…]}`. */
export interface List<T extends KubeObject = KubeObject> extends TypeMeta {
  metadata: ListMeta;
  items: T[];
}

export type StatusReason =
  | '' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Gone' | 'Invalid'
  | 'ServerTimeout' | 'Timeout' | 'TooManyRequests' | 'BadRequest' | 'MethodNotAllowed' | 'NotAcceptable'
  | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'InternalError' | 'Expired' | 'ServiceUnavailable';

export interface StatusCause {
  /** The CauseType, serialized as `reason` (e.g. `FieldValueRequired`). */
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource plural for most errors (`pods`), the Kind for Invalid (`Pod`). */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** metav1.Status; key order matches the apiserver's JSON: kind, apiVersion, metadata, status, message, reason, details, code. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export type DeletionPropagation = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions extends TypeMeta {
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  orphanDependents?: boolean;
  propagationPolicy?: DeletionPropagation;
  dryRun?: string[];
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** metav1.Condition (used by newer APIs; core/apps conditions have their own shapes). */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime: Timestamp;
  reason: string;
  message: string;
}

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A Table cell: strings, integers, booleans or null, as the printers emit them. */
export type TableCell = string | number | boolean | null;

export interface TableRowCondition {
  type: 'Completed';
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  /** PartialObjectMetadata by default, the full object with includeObject=Object, absent with None. */
  object?: KubeObject;
}

/** meta.k8s.io/v1 Table, what `kubectl get` asks for. */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  /** `null` when headers were not asked for (watch events after the first). */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}
