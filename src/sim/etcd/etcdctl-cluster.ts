// etcdctl 3.4.23's views of a cluster: `endpoint status`, `endpoint health` and `member list`, as its
// simple, table and JSON printers print them, from the responses (or errors) per endpoint.
// Models etcdctl/ctlv3/command/ep_command.go (epHealth, epStatus), member_command.go, printer.go
// (makeEndpointStatusTable, makeMemberListTable), printer_simple.go, printer_table.go (olekukonko/
// tablewriter with every cell right-aligned, centred upper-case headers, cells over 30 columns wrapped at
// spaces with the fewest ragged lines) and printer_json.go (Go's encoding/json: uint64 IDs as numbers,
// proto fields `omitempty`), go-humanize's Bytes and Go's time.Duration String.

import { hexId } from './cluster.ts';
import type { MemberListResponse, ResponseHeader, StatusResponse } from './rpc.ts';

/** go-humanize's Bytes: SI units, one decimal below 10. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const val = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  // fmt's %.0f rounds an exact half to even (20.5 → 20).
  const whole = val - Math.floor(val) === 0.5 && Math.floor(val) % 2 === 0 ? Math.floor(val) : Math.round(val);
  return `${val < 10 ? val.toFixed(1) : String(whole)} ${units[e]}`;
}

/** Go's time.Duration String for a whole number of nanoseconds or more. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1) return `${Number((ms * 1000).toFixed(3))}µs`;
  if (ms < 1000) return `${Number(ms.toFixed(6))}ms`;
  return `${Number((ms / 1000).toFixed(9))}s`;
}

/** tablewriter's WrapString/WrapWords: lines within `lim` (or the longest word) with the least raggedness. */
export function wrapWords(s: string, lim: number): string[] {
  const words = s.replace(/\n/g, ' ').split(' ');
  const limit = Math.max(lim, ...words.map((w) => w.length));
  const n = words.length;
  const length = (i: number, j: number): number => words.slice(i, j + 1).reduce((a, w) => a + w.length, 0) + (j - i);
  const cost = new Array<number>(n).fill(2 ** 31 - 1);
  const next = new Array<number>(n).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    if (length(i, n - 1) <= limit) {
      cost[i] = 0;
      continue;
    }
    for (let j = i + 1; j < n; j++) {
      const d = limit - length(i, j - 1);
      const c = d * d + cost[j]! + (length(i, j - 1) > limit ? 100_000 : 0);
      if (c < cost[i]!) {
        cost[i] = c;
        next[i] = j;
      }
    }
  }
  const lines: string[] = [];
  for (let i = 0; i < n; i = next[i]!) lines.push(words.slice(i, next[i]).join(' '));
  return lines;
}

/** olekukonko/tablewriter as etcdctl configures it: borders, centred headers, cells right-aligned and wrapped at 30. */
export function tablewriter(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const heads = header.map((h) => h.toUpperCase());
  const cells = rows.map((r) => heads.map((_, i) => ((r[i] ?? '').length > 30 ? wrapWords(r[i]!, 30) : [r[i] ?? ''])));
  const widths = heads.map((h, i) => Math.max(h.length, ...cells.map((r) => Math.max(...r[i]!.map((l) => l.length)))));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const center = (s: string, w: number): string => {
    const gap = w - s.length;
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + s + ' '.repeat(gap - left);
  };
  const head = `|${heads.map((c, i) => ` ${center(c, widths[i]!)} `).join('|')}|\n`;
  const body = cells.map((r) => {
    const height = Math.max(...r.map((c) => c.length));
    let out = '';
    for (let k = 0; k < height; k++) out += `|${r.map((c, i) => ` ${(c[k] ?? '').padStart(widths[i]!)} `).join('|')}|\n`;
    return out;
  }).join('');
  return line + head + line + body + line;
}

export type EtcdctlFormat = 'simple' | 'table' | 'json';

interface Printed {
  readonly stdout: string;
  /** The simple printer writes health to stderr. */
  readonly stderr: string;
}

function headerJson(h: ResponseHeader): string {
  return `{"cluster_id":${h.clusterId},"member_id":${h.memberId}${h.revision !== 0 ? `,"revision":${h.revision}` : ''},"raft_term":${h.raftTerm}}`;
}

/** One endpoint's Status, as epStatus holds it. */
export interface EndpointStatus {
  readonly endpoint: string;
  readonly status: StatusResponse;
}

export function printEndpointStatus(list: readonly EndpointStatus[], format: EtcdctlFormat): string {
  if (format === 'json') {
    return `[${list.map(({ endpoint, status: s }) => `{"Endpoint":${JSON.stringify(endpoint)},"Status":{"header":${headerJson(s.header)},`
      + `"version":${JSON.stringify(s.version)},"dbSize":${s.dbSize}${s.leader !== '0' ? `,"leader":${s.leader}` : ''},"raftIndex":${s.raftIndex},`
      + `"raftTerm":${s.raftTerm},"raftAppliedIndex":${s.raftAppliedIndex}${s.errors.length > 0 ? `,"errors":${JSON.stringify(s.errors)}` : ''},`
      + `"dbSizeInUse":${s.dbSizeInUse}${s.isLearner ? ',"isLearner":true' : ''}}}`).join(',')}]\n`;
  }
  const rows = list.map(({ endpoint, status: s }) => [
    endpoint, hexId(s.header.memberId), s.version, humanizeBytes(s.dbSize), String(s.leader === s.header.memberId), String(s.isLearner),
    String(s.raftTerm), String(s.raftIndex), String(s.raftAppliedIndex), s.errors.join(', '),
  ]);
  if (format === 'table') {
    return tablewriter(['endpoint', 'ID', 'version', 'db size', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors'], rows);
  }
  return rows.map((r) => `${r.join(', ')}\n`).join('');
}

/** One endpoint's health check: `took` is Go's Duration text, `error` empty when healthy. */
export interface EndpointHealth {
  readonly endpoint: string;
  readonly health: boolean;
  readonly took: string;
  readonly error: string;
}

export function printEndpointHealth(list: readonly EndpointHealth[], format: EtcdctlFormat): Printed {
  if (format === 'json') {
    const items = list.map((h) => `{"endpoint":${JSON.stringify(h.endpoint)},"health":${h.health},"took":${JSON.stringify(h.took)}${h.error ? `,"error":${JSON.stringify(h.error)}` : ''}}`);
    return { stdout: `[${items.join(',')}]\n`, stderr: '' };
  }
  if (format === 'table') return { stdout: tablewriter(['endpoint', 'health', 'took', 'error'], list.map((h) => [h.endpoint, String(h.health), h.took, h.error])), stderr: '' };
  return {
    stdout: '',
    stderr: list.map((h) => (h.error === ''
      ? `${h.endpoint} is healthy: successfully committed proposal: took = ${h.took}\n`
      : `${h.endpoint} is unhealthy: failed to commit proposal: ${h.error}\n`)).join(''),
  };
}

export function printMemberList(resp: MemberListResponse, format: EtcdctlFormat): string {
  if (format === 'json') {
    const members = resp.members.map((m) => `{"ID":${m.ID},"name":${JSON.stringify(m.name)},"peerURLs":${JSON.stringify(m.peerURLs)}`
      + `${m.clientURLs.length > 0 ? `,"clientURLs":${JSON.stringify(m.clientURLs)}` : ''}${m.isLearner ? ',"isLearner":true' : ''}}`);
    return `{"header":${headerJson(resp.header)},"members":[${members.join(',')}]}\n`;
  }
  const rows = resp.members.map((m) => [
    hexId(m.ID), m.name === '' ? 'unstarted' : 'started', m.name, m.peerURLs.join(','), m.clientURLs.join(','), String(m.isLearner),
  ]);
  if (format === 'table') return tablewriter(['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'], rows);
  return rows.map((r) => `${r.join(', ')}\n`).join('');
}
