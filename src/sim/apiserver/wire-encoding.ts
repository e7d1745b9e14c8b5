// The bytes of an answer on the wire, by its Content-Type: the simulation passes decoded objects around
// (so the trace and the page show them), and the Node server writes them as kube-apiserver's serializers
// would: JSON (Go's encoder: HTML-safe escapes and a trailing newline; indented for `?pretty=true` and for
// curl, Wget and browsers), YAML (keys sorted, as sigs.k8s.io/yaml prints them) or Kubernetes protobuf
// (`k8s\0` + runtime.Unknown). A watch writes one frame per event: a JSON line, or for protobuf a 4-byte
// big-endian length followed by a meta/v1 WatchEvent (raw, no envelope) whose object is the enveloped
// encoding of the event's object.
// Models k8s.io/apimachinery/pkg/runtime/serializer/json/json.go (doEncode), serializer/protobuf/protobuf.go
// (Serializer, RawSerializer, LengthDelimitedFramer), k8s.io/apiserver/pkg/endpoints/handlers/watch.go and
// watch encoding (watchEncoder.doEncode: WatchEvent{type, RawExtension{raw}}), negotiation/negotiate.go
// (isPrettyPrint).

import { stringify as stringifyYaml } from 'yaml';
import { decodeProtobuf, encodeProtobuf, encodeWatchEventFrame } from '../api/protobuf/index.ts';
import type { KubeObject } from '../api/types/meta.ts';
import { utf8Decode } from '../etcd/bytes.ts';
import type { HttpRequest, HttpWatchEvent } from '../wire/http.ts';
import { parseQuery } from '../go/url.ts';
import { parseMediaType, protobufMediaType, yamlMediaType } from './negotiation.ts';

/** Bytes for protobuf, text for everything else. */
export type WireBody = string | Uint8Array;

/**
 * Go's json.Encoder output for a value: `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`… (they only
 * occur inside strings in JSON text, so a global replace is exact), then a newline. Pretty output is
 * json.MarshalIndent's (two spaces, no newline).
 */
export function goJson(value: unknown, pretty = false): string {
  const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  const escaped = text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return pretty ? escaped : `${escaped}\n`;
}

/** sigs.k8s.io/yaml's output: JSON first, then YAML with map keys sorted and sequences not indented. */
export function goYaml(value: unknown): string {
  const json = JSON.parse(JSON.stringify(value)) as unknown;
  return stringifyYaml(json, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}

/** `?pretty=true`, or a user agent that is a browser, curl or Wget: the indented JSON serializer. */
// Models negotiation.isPrettyPrint.
export function isPrettyPrint(request: Pick<HttpRequest, 'query' | 'headers'>): boolean {
  const pretty = parseQuery(request.query).get('pretty');
  if (pretty !== undefined && pretty !== '') return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(pretty);
  const agent = request.headers['user-agent'] ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

/** The bytes of a response body with this Content-Type (a string body is already text). */
export function encodeBody(contentType: string | undefined, body: unknown, pretty = false): WireBody {
  if (typeof body === 'string') return body;
  const mediaType = parseMediaType(contentType ?? '');
  if (mediaType === protobufMediaType) return encodeProtobuf(body as { apiVersion?: string; kind?: string });
  if (mediaType === yamlMediaType) return goYaml(body);
  return goJson(body, pretty);
}

/** One watch event on a stream with this Content-Type: a JSON line, or a length-prefixed protobuf frame. */
export function encodeWatchEvent(contentType: string | undefined, event: HttpWatchEvent): WireBody {
  if (parseMediaType(contentType ?? '') !== protobufMediaType) return goJson(event);
  return encodeWatchEventFrame(event.type, event.object as { apiVersion?: string; kind?: string });
}

/** A protobuf request body decoded (never throws). */
export function decodeProtobufBody(bytes: Uint8Array, defaults?: { readonly apiVersion: string; readonly kind: string }): { ok: true; object: KubeObject } | { ok: false; error: string } {
  return decodeProtobuf(bytes, defaults);
}

/**
 * Reads a protobuf watch stream back into events (what client-go's frame reader and watch decoder do),
 * independently of the codec's writer: meta/v1 WatchEvent { string type = 1; RawExtension object = 2 }
 * and RawExtension { bytes raw = 1 } (k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto). For tests
 * and tools; returns the events and any bytes of an incomplete last frame.
 */
export function decodeWatchFrames(bytes: Uint8Array): { readonly events: Array<{ type: string; raw: Uint8Array }>; readonly rest: Uint8Array } {
  const events: Array<{ type: string; raw: Uint8Array }> = [];
  let at = 0;
  while (at + 4 <= bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    if (at + 4 + length > bytes.length) break;
    const message = bytes.subarray(at + 4, at + 4 + length);
    const fields = readLengthDelimited(message);
    const type = utf8Decode(fields.get(1) ?? new Uint8Array());
    const raw = readLengthDelimited(fields.get(2) ?? new Uint8Array()).get(1) ?? new Uint8Array();
    events.push({ type, raw });
    at += 4 + length;
  }
  return { events, rest: bytes.subarray(at) };
}

/** The length-delimited fields of a message by number (the messages read here have nothing else). */
function readLengthDelimited(message: Uint8Array): Map<number, Uint8Array> {
  const fields = new Map<number, Uint8Array>();
  let at = 0;
  const varint = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = message[at++];
      if (b === undefined) throw new Error('unexpected EOF');
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  };
  while (at < message.length) {
    const key = varint();
    if ((key & 7) !== 2) throw new Error(`unexpected wire type ${key & 7}`);
    const length = varint();
    if (at + length > message.length) throw new Error('unexpected EOF');
    fields.set(Math.floor(key / 8), message.subarray(at, at + length));
    at += length;
  }
  return fields;
}
