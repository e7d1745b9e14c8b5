import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertFieldSelector, escapeFieldValue, fieldSelectorString, matchesFields, parseFieldSelector, requiresExactFieldMatch,
  selectableFields, type FieldSelector,
} from './fields.ts';
import { lookupResource, type ResourceInfo } from './resources.ts';

function parse(s: string): FieldSelector {
  const r = parseFieldSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function res(group: string, resource: string): ResourceInfo {
  const r = lookupResource(group, resource);
  if (r === undefined) throw new Error(resource);
  return r;
}

describe('parseFieldSelector', () => {
  // Cases from apimachinery fields/selector_test.go TestSelectorParse.
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a\\,b', 'x=a\\=b', 'x=a\\\\b'])('round-trips %j', (s) => {
    expect(fieldSelectorString(parse(s))).toBe(s);
  });

  it('treats == as =, sorts terms and unescapes values', () => {
    expect(parse('z=1,a==2').terms).toEqual([{ field: 'a', operator: '=', value: '2' }, { field: 'z', operator: '=', value: '1' }]);
    expect(parse('x=a\\,b').terms[0]!.value).toBe('a,b');
  });

  it.each([
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['a,x', "invalid selector: 'a,x'; can't understand 'a'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['x=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a\\b', 'invalid field selector: invalid escape sequence: \\b'],
    ['x=a\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('rejects %j', (s, message) => {
    expect(parseFieldSelector(s)).toEqual({ ok: false, error: message });
  });

  it('escapes and unescapes inversely', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ',', '=', '\\', '!') }), (v) => {
      expect(parse(`f=${escapeFieldValue(v)}`).terms).toEqual([{ field: 'f', operator: '=', value: v }]);
    }));
  });
});

describe('field matching', () => {
  it('compares against the exposed values, absent fields reading as empty', () => {
    expect(matchesFields(parse('spec.nodeName=node-1'), { 'spec.nodeName': 'node-1' })).toBe(true);
    expect(matchesFields(parse('spec.nodeName=node-1,status.phase!=Failed'), { 'spec.nodeName': 'node-1', 'status.phase': 'Failed' })).toBe(false);
    expect(matchesFields(parse('spec.nodeName='), {})).toBe(true);
    expect(requiresExactFieldMatch(parse('metadata.name=nginx'), 'metadata.name')).toBe('nginx');
    expect(requiresExactFieldMatch(parse('metadata.name!=nginx'), 'metadata.name')).toBeUndefined();
  });

  it('exposes the pod fields the kubelet and scheduler select on', () => {
    const pods = res('', 'pods');
    const f = selectableFields(pods, { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [], nodeName: 'node-1', schedulerName: 'default-scheduler' }, status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }] } } as never);
    expect(f).toEqual({
      'metadata.name': 'p', 'metadata.namespace': 'default', 'spec.nodeName': 'node-1', 'spec.restartPolicy': '',
      'spec.schedulerName': 'default-scheduler', 'spec.serviceAccountName': '', 'spec.hostNetwork': 'false',
      'status.phase': 'Running', 'status.podIP': '10.0.0.1', 'status.nominatedNodeName': '',
    });
    expect(selectableFields(res('', 'nodes'), { metadata: { name: 'n' } })).toEqual({ 'metadata.name': 'n', 'spec.unschedulable': 'false' });
  });

  it('exposes event fields for kubectl describe', () => {
    const f = selectableFields(res('', 'events'), { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', uid: 'u' }, source: { component: 'kubelet' } } as never);
    expect(f['involvedObject.uid']).toBe('u');
    expect(f.source).toBe('kubelet');
  });
});

describe('convertFieldSelector', () => {
  it('accepts supported labels and renames spec.host', () => {
    const r = convertFieldSelector(res('', 'pods'), parse('spec.host=node-1,status.phase=Running'));
    expect(r.ok && fieldSelectorString(r.value)).toBe('spec.nodeName=node-1,status.phase=Running');
  });

  it.each([
    ['', 'pods', 'spec.foo=x', 'field label not supported: spec.foo'],
    ['', 'nodes', 'metadata.namespace=x', 'field label not supported: metadata.namespace'],
    ['', 'events', 'involvedObject.foo=x', 'field label not supported: involvedObject.foo'],
    ['apps', 'deployments', 'spec.replicas=1', '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ['apps', 'replicasets', 'status.replicas=1', '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"'],
  ])('rejects %s/%s %s', (group, resource, selector, message) => {
    expect(convertFieldSelector(res(group, resource), parse(selector))).toEqual({ ok: false, error: message });
  });
});
