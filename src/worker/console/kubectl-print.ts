// What kubectl prints: server-side Tables as aligned columns (tabwriter with kubectl's settings), the
// NAMESPACE and LABELS columns it adds from each row's object, `-o yaml|json|name`, and errors from a
// Status body (`Error from server (NotFound): …`, the Invalid form built from the causes).
// Models k8s.io/cli-runtime/pkg/printers (tableprinter.go, tabwriter.go: minwidth 0, tabwidth 4,
// padding 3; yaml.go through sigs.k8s.io/yaml, keys sorted; json.go, 4-space indent; name.go) and
// k8s.io/kubectl/pkg/cmd/util/helpers.go (StandardErrorMessage).

import { Document, visit, Scalar } from 'yaml';
import type { ResourceInfo } from '../../sim/api/resources.ts';
import type { KubeObject, Status, TableColumnDefinition, TableRow } from '../../sim/api/types/meta.ts';
import type { HttpResponse } from '../../sim/wire/http.ts';

/** Go's text/tabwriter as kubectl configures it: each cell but the last padded to its column's width + 3. */
export function tabwrite(rows: readonly (readonly string[])[], padding = 3): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      if (i < row.length - 1) widths[i] = Math.max(widths[i] ?? 0, cell.length + padding);
    });
  }
  return rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('')).join('\n') + (rows.length > 0 ? '\n' : '');
}

export interface TableOptions {
  readonly wide: boolean;
  readonly withNamespace: boolean;
  readonly showLabels: boolean;
  /** Prefix names with `kind.group/` (several resource types in one `get`). */
  readonly kindPrefix?: string;
  readonly header: boolean;
}

/** `app=nginx,tier=web`, or `<none>`. */
export function labelsText(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '<none>';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  return JSON.stringify(cell);
}

/** The rows kubectl prints for a Table's rows (the header first when `header`). */
export function tableRows(definitions: readonly TableColumnDefinition[], tableRows: readonly TableRow[], options: TableOptions): string[][] {
  const columns = definitions.map((c, i) => ({ c, i })).filter(({ c }) => options.wide || c.priority === 0);
  const rows: string[][] = [];
  if (options.header) {
    const header = columns.map(({ c }) => c.name.toUpperCase());
    if (options.withNamespace) header.unshift('NAMESPACE');
    if (options.showLabels) header.push('LABELS');
    rows.push(header);
  }
  for (const row of tableRows) {
    const meta = (row.object as { metadata?: KubeObject['metadata'] } | undefined)?.metadata;
    const cells = columns.map(({ c, i }) => {
      const text = cellText(row.cells[i]);
      return c.format === 'name' && options.kindPrefix ? `${options.kindPrefix}/${text}` : text;
    });
    if (options.withNamespace) cells.unshift(meta?.namespace ?? '');
    if (options.showLabels) cells.push(labelsText(meta?.labels));
    rows.push(cells);
  }
  return rows;
}

/** `deployment.apps`, `pod`: how kubectl names a resource type in messages and `-o name`. */
export function kindName(r: ResourceInfo): string {
  return r.group === '' ? r.kind.toLowerCase() : `${r.kind.toLowerCase()}.${r.group}`;
}

/**
 * The object as `-o yaml|json` prints it: apiVersion and kind filled in first, and managedFields left
 * out (`--show-managed-fields=false`, kubectl's default since 1.21).
 */
export function withTypeMeta(obj: KubeObject, r: ResourceInfo): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = obj as KubeObject & Record<string, unknown>;
  const { managedFields: _m, ...metadata } = (obj.metadata ?? {}) as KubeObject['metadata'] & Record<string, unknown>;
  return { apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, kind: r.kind, ...rest, metadata } as KubeObject;
}

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** go-yaml v2's keyList.Less: letters by code point, non-letters first, digit runs by value. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') { an = 1; bn = 1; break; }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

const resolvedWords = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
]);
const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const goInt = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const timestamp = /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{1,2}:\d{2}))|(?: \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?))?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** Whether go-yaml v2 would read this plain scalar as something other than a string (so it quotes it). */
export function goYamlResolvesNonString(s: string): boolean {
  if (resolvedWords.has(s) || base60Float.test(s)) return true;
  const c = s[0]!;
  if (c === '.') return yamlStyleFloat.test(s) || /^\.[0-9]/.test(s) && !Number.isNaN(Number(s));
  if (!(isDigit(c) || c === '+' || c === '-')) return false;
  if (timestamp.test(s)) return true;
  const plain = s.replace(/_/g, '');
  return goInt.test(plain) || yamlStyleFloat.test(plain);
}

/** libyaml's analysis: may this scalar be written plain in block context? */
function plainAllowed(s: string): boolean {
  if (s.startsWith('---') || s.startsWith('...')) return false;
  if (s.startsWith(' ') || s.endsWith(' ') || s.startsWith('\t') || s.endsWith('\t')) return false;
  const first = s[0]!;
  const followedBySpace = (i: number): boolean => i + 1 >= s.length || s[i + 1] === ' ' || s[i + 1] === '\t';
  if (',[]{}#&*!|>\'"%@`'.includes(first)) return false;
  if ((first === '?' || first === ':' || first === '-') && followedBySpace(0)) return false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === ':' && followedBySpace(i)) return false;
    if (s[i] === '#' && i > 0 && (s[i - 1] === ' ' || s[i - 1] === '\t')) return false;
    const code = s.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return false;
  }
  return true;
}

/**
 * sigs.k8s.io/yaml output (JSON → go-yaml v2): keys in go-yaml's order, block style, sequences not indented
 * under their key, strings that would read as another type (timestamps, numbers, booleans, null) in double
 * quotes, strings that cannot be plain (indicators, `: `, leading spaces) in single quotes, multi-line
 * strings as literal blocks.
 */
export function toYaml(value: unknown): string {
  const doc = new Document(value, { version: '1.1', sortMapEntries: (a, b) => {
    const ak = String((a.key as Scalar | null)?.value ?? a.key);
    const bk = String((b.key as Scalar | null)?.value ?? b.key);
    return goYamlKeyLess(ak, bk) ? -1 : goYamlKeyLess(bk, ak) ? 1 : 0;
  }, aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const s = node.value;
      node.type = s.includes('\n') ? Scalar.BLOCK_LITERAL : goYamlResolvesNonString(s) ? Scalar.QUOTE_DOUBLE : plainAllowed(s) ? Scalar.PLAIN : Scalar.QUOTE_SINGLE;
    },
  });
  return doc.toString({ indentSeq: false, lineWidth: 0, minContentWidth: 0 });
}

/** encoding/json MarshalIndent with kubectl's 4 spaces. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 4)}\n`;
}

/** A v1 List wrapping several objects, as `kubectl get -o yaml|json` prints a list. */
export function listOf(items: readonly KubeObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** What kubectl prints for an error reply (its Status). `action` wraps it for `-f` (`error when creating "STDIN"`). */
/** The Status an error reply carries, or null when its body is something else. */
export function statusOf(response: HttpResponse): Partial<Status> | null {
  const body = response.body as { kind?: unknown } | null;
  return body !== null && typeof body === 'object' && body.kind === 'Status' ? (body as Partial<Status>) : null;
}

export function statusErrorText(status: Partial<Status> | null, code: number, fallback: string, action?: string): string {
  if (status && status.reason === 'Invalid' && status.details?.causes && status.details.causes.length > 0) {
    const causes = status.details.causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? ''));
    const head = `The ${status.details.kind ?? ''} "${status.details.name ?? ''}" is invalid`;
    return causes.length === 1 ? `${head}: ${causes[0]}\n` : `${head}: \n* ${causes.join('\n* ')}\n`;
  }
  const reason = status?.reason || reasonForCode(code);
  const message = status?.message ?? fallback;
  return `Error from server (${reason}): ${action ? `${action}: ` : ''}${message}\n`;
}

function reasonForCode(code: number): string {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    default: return 'InternalError';
  }
}

/** Go's net/http StatusText for the codes kube-apiserver returns. */
export function statusText(code: number): string {
  const texts: Record<number, string> = {
    200: 'OK', 201: 'Created', 202: 'Accepted', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
    405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 410: 'Gone', 413: 'Request Entity Too Large',
    415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
    503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return `${code} ${texts[code] ?? ''}`.trimEnd();
}
