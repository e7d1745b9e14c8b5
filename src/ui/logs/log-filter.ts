// Filtering and summarising log lines for the logs panel.

import type { LogLine, LogSource } from '../../protocol/index.ts';

export interface LogFilter {
  readonly sources: ReadonlySet<LogSource>;
  /** Keeps lines whose key (etcd) or path (kubectl, audit) starts with this; empty keeps all. */
  readonly prefix: string;
  /** RPC (`Range`, `Txn`…) or HTTP/audit verb; empty keeps all. */
  readonly rpc: string;
  readonly expensiveOnly: boolean;
}

export function filterLogs(lines: readonly LogLine[], filter: LogFilter): LogLine[] {
  return lines.filter((l) => filter.sources.has(l.source)
    && (filter.prefix === '' || (l.key ?? '').startsWith(filter.prefix))
    && (filter.rpc === '' || l.rpc === filter.rpc)
    && (!filter.expensiveOnly || l.expensive === true));
}

export function rpcsOf(lines: readonly LogLine[]): string[] {
  return [...new Set(lines.map((l) => l.rpc).filter((r): r is string => r !== undefined))].sort();
}

/** `ResponseComplete  alice  list  pods  403` from an audit event's JSON line. */
export function auditSummary(text: string): string {
  try {
    const e = JSON.parse(text) as {
      stage?: string; verb?: string; user?: { username?: string }; impersonatedUser?: { username?: string };
      objectRef?: { resource?: string; namespace?: string; name?: string; subresource?: string }; responseStatus?: { code?: number }; requestURI?: string;
    };
    const user = e.impersonatedUser?.username ? `${e.user?.username ?? ''} as ${e.impersonatedUser.username}` : e.user?.username ?? '';
    const ref = e.objectRef;
    const resource = ref?.resource ? `${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''}${ref.namespace ? ` ${ref.namespace}/` : ' '}${ref.name ?? ''}`.trim() : e.requestURI ?? '';
    return [e.stage, user, e.verb, resource, e.responseStatus?.code].filter((x) => x !== undefined && x !== '').join('  ');
  } catch {
    return text;
  }
}
