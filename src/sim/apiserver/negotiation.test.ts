import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/errors.ts';
import {
  negotiateInputMediaType, negotiateMediaType, negotiateWatchMediaType, parseAccept, plainEndpoint, watchContentType, withNegotiatedContentType,
} from './negotiation.ts';

function statusOf(f: () => unknown): { code: number; reason: string; message: string } {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return { code: err.code, reason: err.reason, message: err.status.message ?? '' };
    throw err;
  }
  throw new Error('no error');
}

describe('Accept negotiation (goautoneg + NegotiateMediaTypeOptions)', () => {
  it('parses clauses with q-values and orders them as goautoneg\'s Less does: higher q, or a concrete type over a wildcard', () => {
    const clauses = parseAccept('*/*;q=0.8, application/json;q=0.5, application/vnd.kubernetes.protobuf, text/*, bogus');
    // goautoneg's Less is not a strict order: a concrete type counts as "before" a wildcard whatever their
    // q, so insertion sort leaves application/json;q=0.5 ahead of */*;q=0.8, as in kube-apiserver.
    expect(clauses.map((c) => [`${c.type}/${c.subType}`, c.q])).toEqual([
      ['application/vnd.kubernetes.protobuf', 1], ['text/*', 1], ['application/json', 0.5], ['*/*', 0.8],
    ]);
    expect(parseAccept('application/json;q=0.2, application/yaml;q=0.9').map((c) => c.subType)).toEqual(['yaml', 'json']);
    expect(parseAccept('*')[0]).toMatchObject({ type: '*', subType: '*' });
    expect(parseAccept('application/json;as=Table;v=v1;g=meta.k8s.io')[0]!.params).toEqual(new Map([['as', 'Table'], ['v', 'v1'], ['g', 'meta.k8s.io']]));
  });

  it('picks what client-go and kubectl ask for', () => {
    // The typed client (kubectl describe, drain): protobuf first.
    expect(negotiateMediaType('application/vnd.kubernetes.protobuf, */*')).toEqual({ mediaType: 'application/vnd.kubernetes.protobuf', convert: null, pretty: false });
    expect(negotiateMediaType('application/vnd.kubernetes.protobuf,application/json').mediaType).toBe('application/vnd.kubernetes.protobuf');
    // kubectl get: a Table, v1 before v1beta1.
    expect(negotiateMediaType('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'))
      .toEqual({ mediaType: 'application/json', convert: { group: 'meta.k8s.io', version: 'v1', kind: 'Table' }, pretty: false });
    expect(negotiateMediaType('application/json;as=Table;v=v1beta1;g=meta.k8s.io').convert).toEqual({ group: 'meta.k8s.io', version: 'v1beta1', kind: 'Table' });
    // q-values decide over order.
    expect(negotiateMediaType('application/json;q=0.5, application/yaml').mediaType).toBe('application/yaml');
    expect(negotiateMediaType('application/json, */*').mediaType).toBe('application/json');
    expect(negotiateMediaType('*/*').mediaType).toBe('application/json');
    expect(negotiateMediaType('application/*').mediaType).toBe('application/json');
    expect(negotiateMediaType(undefined).mediaType).toBe('application/json');
  });

  it('skips conversions the endpoint does not allow: no protobuf Tables, no Tables of other groups, none off resource endpoints', () => {
    expect(negotiateMediaType('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json'))
      .toEqual({ mediaType: 'application/json', convert: null, pretty: false });
    expect(negotiateMediaType('application/json;as=Table;v=v1;g=example.com').convert).toBeNull();
    expect(negotiateMediaType('application/json;as=Table;v=v1;g=meta.k8s.io', plainEndpoint).convert).toBeNull();
    expect(negotiateMediaType('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'))
      .toEqual({ mediaType: 'application/vnd.kubernetes.protobuf', convert: { group: 'meta.k8s.io', version: 'v1', kind: 'PartialObjectMetadataList' }, pretty: false });
  });

  it('answers JSON rather than 406 when nothing acceptable is offered', () => {
    expect(negotiateMediaType('text/html').mediaType).toBe('application/json');
    expect(negotiateMediaType('application/xml;q=1').mediaType).toBe('application/json');
  });

  it('streams watches in JSON or protobuf; YAML cannot stream (406 listing the stream types)', () => {
    expect(negotiateWatchMediaType('application/vnd.kubernetes.protobuf, */*').mediaType).toBe('application/vnd.kubernetes.protobuf');
    expect(watchContentType('application/vnd.kubernetes.protobuf')).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(watchContentType('application/json')).toBe('application/json');
    expect(negotiateWatchMediaType('application/json;stream=watch').mediaType).toBe('application/json');
    expect(statusOf(() => negotiateWatchMediaType('application/yaml'))).toEqual({
      code: 406, reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    });
  });

  it('gives a resource answer the negotiated Content-Type, and leaves text and non-JSON answers alone', () => {
    const object = { status: 200, headers: { 'content-type': 'application/json' }, body: { kind: 'Pod' } };
    expect(withNegotiatedContentType({ headers: { accept: 'application/vnd.kubernetes.protobuf, */*' } }, object).headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(withNegotiatedContentType({ headers: { accept: 'application/yaml' } }, object).headers['content-type']).toBe('application/yaml');
    expect(withNegotiatedContentType({ headers: {} }, object)).toBe(object);
    const text = { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Too many requests, please try again later.\n' };
    expect(withNegotiatedContentType({ headers: { accept: 'application/vnd.kubernetes.protobuf' } }, text)).toBe(text);
  });
});

describe('request bodies (NegotiateInputSerializerForMediaType)', () => {
  it('accepts JSON, YAML and protobuf, with parameters, in any case; no Content-Type is JSON', () => {
    expect(negotiateInputMediaType('application/json; charset=utf-8')).toBe('application/json');
    expect(negotiateInputMediaType('Application/YAML')).toBe('application/yaml');
    expect(negotiateInputMediaType('application/vnd.kubernetes.protobuf')).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiateInputMediaType(undefined)).toBe('application/json');
  });

  it('refuses any other media type with the real 415', () => {
    const expected = {
      code: 415, reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    };
    expect(statusOf(() => negotiateInputMediaType('text/plain'))).toEqual(expected);
    expect(statusOf(() => negotiateInputMediaType('application/x-www-form-urlencoded'))).toEqual(expected);
    expect(statusOf(() => negotiateInputMediaType('not a media type'))).toEqual(expected);
  });
});
