// `kubectl auth can-i VERB TYPE[/NAME] | NONRESOURCEURL [--list]` and `kubectl auth whoami`: a
// SelfSubjectAccessReview (yes/no, exit 0/1), a SelfSubjectRulesReview printed as kubectl's rules table
// (broken down per verb and resource, compacted, sorted by the rule's Go string), and a SelfSubjectReview
// printed as its ATTRIBUTE/VALUE table.
// Models k8s.io/kubectl/pkg/cmd/auth/cani.go (Complete, Validate, RunAccessCheck, RunAccessList,
// printStatus), whoami.go, k8s.io/kubectl/pkg/util/rbac (BreakdownRule, CompactRules, SortableRuleSlice)
// and k8s.io/kubectl/pkg/describe (CombineResourceGroup).

import { findResource } from '../../sim/api/resources.ts';
import type { PolicyRule } from '../../sim/api/types/rbac.ts';
import type { Co } from '../../sim/engine/index.ts';
import { send } from './http.ts';
import type { KubectlIO } from './kubectl.ts';
import { statusErrorText, tabwrite, toJson, toYaml } from './kubectl-print.ts';

type Obj = Record<string, unknown>;

const resourceVerbs = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const nonResourceURLVerbs = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);

export interface CanIOptions {
  readonly namespace: string;
  readonly allNamespaces: boolean;
  readonly list: boolean;
  readonly quiet: boolean;
  readonly noHeaders: boolean;
  readonly subresource?: string;
}

/** kubectl's WarningPrinter: `Warning: <message>` and a newline (cani.go's messages carry their own too). */
function warn(io: KubectlIO, message: string): void {
  io.err(`Warning: ${message}\n`);
}

function failed(io: KubectlIO, response: { status: number; body: unknown }): number {
  const body = response.body as Obj | null;
  io.err(statusErrorText(body && body.kind === 'Status' ? body : null, response.status, String(response.body ?? '')));
  return 1;
}

/** `kubectl auth can-i`. */
export function* canI(io: KubectlIO, args: readonly string[], o: CanIOptions): Co<number> {
  if (o.list) {
    if (o.quiet || o.allNamespaces || o.subresource !== undefined) {
      io.err('error: list option can\'t be specified with neither quiet, all-namespaces nor subresource options\n');
      return 1;
    }
    const body = { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { namespace: o.namespace }, status: { resourceRules: null, nonResourceRules: null, incomplete: false } };
    const { response } = yield* send(io, { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', accept: 'application/json, */*', contentType: 'application/json', body: JSON.stringify(body) });
    if (response.status < 200 || response.status > 299) return failed(io, response);
    const status = ((response.body as Obj).status ?? {}) as { resourceRules?: PolicyRule[]; nonResourceRules?: PolicyRule[]; incomplete?: boolean; evaluationError?: string };
    if (status.incomplete) warn(io, `the list may be incomplete: ${status.evaluationError ?? ''}`);
    io.out(rulesTable([...(status.resourceRules ?? []), ...(status.nonResourceRules ?? [])], !o.noHeaders));
    return 0;
  }
  if (o.noHeaders) {
    io.err('error: --no-headers cannot be set without --list specified\n');
    return 1;
  }
  if (args.length !== 2) {
    io.err(args.length < 2
      ? 'error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee \'kubectl auth can-i -h\' for help and examples.\n'
      : 'error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee \'kubectl auth can-i -h\' for help and examples.\n');
    return 1;
  }
  const [verb, target] = args as [string, string];
  let spec: Obj;
  if (target.startsWith('/')) {
    if (o.subresource !== undefined) { io.err('error: --subresource can not be used with NonResourceURL\n'); return 1; }
    if (!nonResourceURLVerbs.has(verb)) warn(io, `verb '${verb}' is not a known verb\n`);
    spec = { nonResourceAttributes: { path: target, verb } };
  } else {
    const slash = target.indexOf('/');
    const typed = slash < 0 ? target : target.slice(0, slash);
    const name = slash < 0 ? '' : target.slice(slash + 1);
    const r = typed === '*' ? undefined : findResource(typed);
    if (typed !== '*' && !r) warn(io, `the server doesn't have a resource type '${typed.toLowerCase()}'\n`);
    if (r && !r.namespaced && !o.allNamespaces) {
      warn(io, r.group === '' ? `resource '${r.resource}' is not namespace scoped\n` : `resource '${r.resource}' is not namespace scoped in group '${r.group}'\n`);
    }
    if (!resourceVerbs.has(verb)) warn(io, `verb '${verb}' is not a known verb\n`);
    const attributes: Obj = {
      ...(o.allNamespaces ? {} : { namespace: o.namespace }),
      verb,
      ...(r && r.group !== '' ? { group: r.group } : {}),
      ...(r ? { version: r.version } : {}),
      resource: r ? r.resource : typed === '*' ? '*' : typed.toLowerCase(),
      ...(o.subresource ? { subresource: o.subresource } : {}),
      ...(name !== '' ? { name } : {}),
    };
    spec = { resourceAttributes: attributes };
  }
  const body = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: { allowed: false } };
  const { response } = yield* send(io, { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', accept: 'application/json, */*', contentType: 'application/json', body: JSON.stringify(body) });
  if (response.status < 200 || response.status > 299) return failed(io, response);
  const status = ((response.body as Obj).status ?? {}) as { allowed?: boolean; reason?: string; evaluationError?: string };
  if (!o.quiet) {
    if (status.allowed) io.out('yes\n');
    else io.out(`no${status.reason ? ` - ${status.reason}` : ''}${status.evaluationError ? ` - ${status.evaluationError}` : ''}\n`);
  }
  return status.allowed ? 0 : 1;
}

/** Go's `%v` of a []string. */
const goList = (v: readonly string[] | undefined): string => `[${(v ?? []).join(' ')}]`;

/** gogo-protobuf's PolicyRule.String(), the sort key of SortableRuleSlice. */
function ruleString(r: PolicyRule): string {
  return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

// Models rbac.BreakdownRule: one rule per (group, resource, verb[, name]) and per (URL, verb).
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

// Models rbac.CompactRules: simple rules (one group, one resource, at most one name) merge their verbs.
function compact(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = (rule.resourceNames ?? []).length <= 1 && (rule.nonResourceURLs ?? []).length === 0
      && (rule.apiGroups ?? []).length === 1 && (rule.resources ?? []).length === 1;
    if (!isSimple) { out.push(rule); continue; }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) {
      for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
    } else {
      simple.set(key, { ...rule, verbs: [...rule.verbs] });
    }
  }
  return [...out, ...simple.values()];
}

function combineResourceGroup(resources: readonly string[] | undefined, groups: readonly string[] | undefined): string {
  if (!resources || resources.length === 0) return '';
  const [resource, sub] = [resources[0]!.split('/')[0]!, resources[0]!.includes('/') ? resources[0]!.slice(resources[0]!.indexOf('/') + 1) : undefined];
  let out = resource;
  if (groups && groups.length > 0 && groups[0] !== '') out += `.${groups[0]}`;
  if (sub !== undefined) out += `/${sub}`;
  return out;
}

/** The table `kubectl auth can-i --list` prints for a rules review's rules. */
export function rulesTable(rules: readonly PolicyRule[], headers: boolean): string {
  const compacted = compact(rules.flatMap(breakdown));
  const keyed = compacted.map((r) => ({ r, key: ruleString(r) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = keyed.map(({ r }) => [combineResourceGroup(r.resources, r.apiGroups), goList(r.nonResourceURLs), goList(r.resourceNames), goList(r.verbs)]);
  return tabwrite(headers ? [['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs'], ...rows] : rows);
}

/** `kubectl auth whoami [-o json|yaml]`. */
export function* whoami(io: KubectlIO, output: string | undefined): Co<number> {
  const body = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } };
  const { response } = yield* send(io, { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', accept: 'application/json, */*', contentType: 'application/json', body: JSON.stringify(body) });
  if (response.status < 200 || response.status > 299) return failed(io, response);
  const review = response.body as Obj;
  if (output === 'json') { io.out(toJson(review)); return 0; }
  if (output === 'yaml') { io.out(toYaml(review)); return 0; }
  const info = (((review.status ?? {}) as Obj).userInfo ?? {}) as { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  const rows: string[][] = [['ATTRIBUTE', 'VALUE']];
  if (info.username) rows.push(['Username', info.username]);
  if (info.uid) rows.push(['UID', info.uid]);
  if (info.groups && info.groups.length > 0) rows.push(['Groups', goList(info.groups)]);
  for (const k of Object.keys(info.extra ?? {}).sort()) rows.push([`Extra: ${k}`, goList(info.extra![k])]);
  io.out(tabwrite(rows));
  return 0;
}
