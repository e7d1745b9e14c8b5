// Audit: every request gets an audit ID and a RequestReceived record when it arrives and a
// ResponseComplete record (ResponseStarted first, for watches) when it is answered, at Metadata level.
// The log is kept in the component and travels with the stage messages, so the UI can show it.
// Models k8s.io/apiserver/pkg/endpoints/filters/audit.go and pkg/apis/audit/types.go (Event).

export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export interface AuditObjectRef {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly subresource?: string;
}

export interface AuditEvent {
  readonly level: 'Metadata';
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: { readonly username: string; readonly groups: readonly string[] };
  readonly impersonatedUser?: { readonly username: string; readonly groups: readonly string[] };
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectRef;
  readonly responseStatus?: { readonly code: number; readonly status?: string; readonly reason?: string; readonly message?: string };
  /** RFC 3339 with microseconds. */
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

/** The last `limit` audit events. Dropped events are cut off in chunks, so a record costs O(1) amortised. */
export class AuditLog {
  private readonly events: AuditEvent[] = [];
  /** Events before this index are dropped but not yet cut off. */
  private start = 0;

  constructor(private readonly limit = 10_000) {}

  record(event: AuditEvent): void {
    this.events.push(event);
    if (this.events.length - this.start > this.limit) this.start = this.events.length - this.limit;
    if (this.start >= this.limit) this.compact();
  }

  all(): readonly AuditEvent[] {
    this.compact();
    return this.events;
  }

  private compact(): void {
    if (this.start === 0) return;
    this.events.splice(0, this.start);
    this.start = 0;
  }
}
