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

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** How many requests' RequestReceived events the log remembers to share their parts with the later stages. */
const openRequests = 1024;

/**
 * The last `limit` audit events. Dropped events are cut off in chunks, so a record costs O(1) amortised.
 * A recorded event's parts that equal ones the log already keeps are replaced by those (the same
 * values, kept once): a user's record, and the request's URI, object reference, user agent and received
 * time, which a request's later stages repeat from its RequestReceived event.
 */
export class AuditLog {
  private readonly events: AuditEvent[] = [];
  /** Events before this index are dropped but not yet cut off. */
  private start = 0;
  private count = 0;
  private readonly users = new Map<string, AuditEvent['user']>();
  /** RequestReceived events by audit ID, until their request completes (the oldest go past `openRequests`). */
  private readonly received = new Map<string, AuditEvent>();

  constructor(private readonly limit = 10_000) {}

  /** Takes the event (its parts may be replaced by equal ones). */
  record(event: AuditEvent): void {
    this.events.push(this.share(event as Mutable<AuditEvent>));
    this.count++;
    if (this.events.length - this.start > this.limit) this.start = this.events.length - this.limit;
    if (this.start >= this.limit) this.compact();
  }

  /** How many events were ever recorded. */
  get recorded(): number {
    return this.count;
  }

  all(): readonly AuditEvent[] {
    this.compact();
    return this.events;
  }

  /**
   * The retained events recorded after the first `count`: a reader that keeps `recorded` reads only what is
   * new (`all` cuts the dropped ones off first, moving every retained event once the log is full).
   */
  since(count: number): readonly AuditEvent[] {
    const retained = this.events.length - this.start;
    const skip = Math.max(0, count - (this.count - retained));
    return this.events.slice(this.start + skip);
  }

  private share(event: Mutable<AuditEvent>): AuditEvent {
    const user = this.users.get(event.user.username);
    if (user && sameUser(user, event.user)) event.user = user;
    else this.users.set(event.user.username, event.user);
    if (event.stage === 'RequestReceived') {
      if (event.stageTimestamp === event.requestReceivedTimestamp) event.stageTimestamp = event.requestReceivedTimestamp;
      this.received.set(event.auditID, event);
      if (this.received.size > openRequests) this.received.delete(this.received.keys().next().value!);
      return event;
    }
    const first = this.received.get(event.auditID);
    if (!first) return event;
    if (event.stage !== 'ResponseStarted') this.received.delete(event.auditID);
    if (event.requestURI === first.requestURI) event.requestURI = first.requestURI;
    if (event.userAgent !== undefined && event.userAgent === first.userAgent) event.userAgent = first.userAgent;
    if (event.requestReceivedTimestamp === first.requestReceivedTimestamp) event.requestReceivedTimestamp = first.requestReceivedTimestamp;
    if (event.objectRef && first.objectRef && sameRef(event.objectRef, first.objectRef)) event.objectRef = first.objectRef;
    return event;
  }

  private compact(): void {
    if (this.start === 0) return;
    this.events.splice(0, this.start);
    this.start = 0;
  }
}

function sameUser(a: AuditEvent['user'], b: AuditEvent['user']): boolean {
  return a.username === b.username && a.groups.length === b.groups.length && a.groups.every((g, i) => g === b.groups[i]);
}

function sameRef(a: AuditObjectRef, b: AuditObjectRef): boolean {
  const keys = Object.keys(a) as (keyof AuditObjectRef)[];
  const others = Object.keys(b);
  return keys.length === others.length && keys.every((k, i) => others[i] === k && a[k] === b[k]);
}
