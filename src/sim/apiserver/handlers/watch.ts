// WATCH: a storage watch whose events are streamed to the client through the server's watch responder.
// Models k8s.io/apiserver/pkg/endpoints/handlers/get.go (ListResource for watch) and watch.go (serveWatch).

import { newBadRequest } from '../../api/errors.ts';
import type { Co } from '../../engine/index.ts';
import type { HttpWatchEvent } from '../../wire/http.ts';
import { checkListOptions, selectionPredicate, withTypeMeta } from '../request-scope.ts';
import type { Storage, StorageWatch, StorageWatchEvent, StorageWatchSink } from '../storage/interface.ts';
import { partialObjectMetadata } from '../table.ts';
import {
  jsonMediaType, negotiateWatchMediaType, protobufMediaType, watchContentType, type NegotiatedMediaType,
} from '../negotiation.ts';
import { hasProtobufKind } from '../../api/protobuf/index.ts';
import { toTable } from '../../api/table-convertor.ts';
import { requiresExactFieldMatch } from '../../api/fields.ts';
import type { HandlerRequest } from './rest.ts';

/** How a watch talks back: the server turns these into `http.response` (stream), `http.watchEvent`, `http.watchEnd`. */
export interface WatchResponder {
  /** Sends the 200 that opens the stream; the watch ends by itself after `timeoutMs`. */
  open(timeoutMs: number, headers: Record<string, string>): void;
  established(watch: StorageWatch): void;
  event(event: HttpWatchEvent): void;
  /** The storage ended the watch (after an ERROR event, or a relist). */
  end(): void;
  /** The virtual time now, for the AGE cells of Table events (else the time the watch started). */
  now?(): number;
}

/** minRequestTimeout: a watch without timeoutSeconds lasts a random time in [1800 s, 3600 s). */
const minRequestTimeoutSeconds = 1800;

/**
 * WATCH: the storage watch is set up first (a malformed request is answered with its error), then the
 * 200 opens the stream and the events that arrived meanwhile (initial ADDED events, an ERROR) follow.
 * Each event object carries kind and apiVersion; with a Table Accept each is a one-row Table.
 */
export function* handleWatch(h: HandlerRequest, storage: Storage, responder: WatchResponder): Co<void> {
  const { route, ctx, query } = h;
  const resourceVersion = query.get('resourceVersion') ?? '';
  checkListOptions(query, resourceVersion, true);
  const named = route.info.name;
  const base = selectionPredicate(route.resource, query);
  const predicate = named !== '' && requiresExactFieldMatch(base.field, 'metadata.name') !== named
    ? { ...base, field: { terms: [...base.field.terms, { field: 'metadata.name', operator: '=' as const, value: named }] } }
    : base;
  const timeoutText = query.get('timeoutSeconds') ?? '';
  const timeoutSeconds = timeoutText !== '' ? Number(timeoutText) : minRequestTimeoutSeconds * (1 + ctx.rng.float());
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw newBadRequest(`invalid timeoutSeconds: ${timeoutText}`);
  const timeoutMs = timeoutSeconds * 1000;
  const asked = negotiateWatchMediaType(h.http.headers.accept);
  // Deviation (as for other answers): a kind the protobuf codec cannot write streams as JSON.
  const sentKind = asked.convert?.kind === 'PartialObjectMetadata' ? 'PartialObjectMetadata' : route.resource.kind;
  const negotiated: NegotiatedMediaType = asked.mediaType === protobufMediaType && !hasProtobufKind(sentKind) ? { ...asked, mediaType: jsonMediaType } : asked;
  const table = negotiated.convert?.kind === 'Table' ? negotiated.convert : null;
  const partial = negotiated.convert?.kind === 'PartialObjectMetadata' ? negotiated.convert : null;
  // The first event encoded carries the Table's column definitions; every later one has none
  // (watchEmbeddedEncoder flips TableOptions.NoHeaders after its first object, whatever its type).
  let headersSent = false;
  const convert = (e: StorageWatchEvent): HttpWatchEvent => {
    const noHeaders = headersSent;
    headersSent = true;
    if (e.type === 'ERROR') return { type: e.type, object: e.object };
    if (partial) return { type: e.type, object: partialObjectMetadata(e.object, partial.version) };
    // Deviation: a bookmark in a Table watch stays the bare object (kubectl never asks for bookmarks).
    if (!table || e.type === 'BOOKMARK') return { type: e.type, object: withTypeMeta(route.resource, e.object) };
    const t = toTable(route.resource, [e.object], {}, ctx.epochMs + (responder.now?.() ?? ctx.now), { includeObject: query.get('includeObject') ?? '', noHeaders });
    if (!('kind' in t && t.kind === 'Table')) return { type: e.type, object: e.object };
    return { type: e.type, object: table.version === 'v1' ? t : { ...t, apiVersion: `meta.k8s.io/${table.version}` } };
  };
  let opened = false;
  let endedEarly = false;
  const early: HttpWatchEvent[] = [];
  const sink: StorageWatchSink = {
    event: (e) => {
      if (opened) responder.event(convert(e));
      else early.push(convert(e));
    },
    end: () => {
      if (opened) responder.end();
      else endedEarly = true;
    },
  };
  const sendInitialEvents = query.get('sendInitialEvents');
  const watch = yield* storage.watch(h.store.collectionKey(ctx.namespace), {
    resourceVersion,
    predicate,
    recursive: true,
    allowWatchBookmarks: query.get('allowWatchBookmarks') === 'true',
    deadline: ctx.now + timeoutMs,
    ...(sendInitialEvents !== undefined ? { sendInitialEvents: sendInitialEvents === 'true' } : {}),
  }, sink);
  responder.open(timeoutMs, { 'content-type': watchContentType(negotiated.mediaType) });
  opened = true;
  for (const e of early) responder.event(e);
  responder.established(watch);
  if (endedEarly) responder.end();
}
