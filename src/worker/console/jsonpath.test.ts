import { describe, expect, it } from 'vitest';
import { executeJsonPath, JsonPathError, parseTemplate, type JsonValue } from './jsonpath.ts';

// The expected texts are what kubectl 1.32 printed for the same templates on the same objects
// (test/kubectl checks the evaluator against the real kubectl when it is installed).
const deployment: JsonValue = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web', 'a&b': '<x>' }, resourceVersion: '42' },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'c1', image: 'nginx:1.14.2', ports: [{ containerPort: 80, protocol: 'TCP' }] }, { name: 'c2', image: 'redis' }] } } },
  status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }], ratio: 0.5 },
};
const list: JsonValue = { apiVersion: 'v1', kind: 'List', items: [
  { metadata: { name: 'a', labels: { app: 'x' } }, spec: { nodeName: 'node-1' } },
  { metadata: { name: 'b', labels: { app: 'y' } }, spec: {} },
  { metadata: { name: 'c', labels: { app: 'x' } }, spec: { nodeName: 'node-2' } },
] };

describe('kubectl -o jsonpath', () => {
  it.each([
    ['{.metadata.name}', 'web'],
    ['{.spec.replicas}', '2'],
    ['replicas={.spec.replicas}{"\\n"}', 'replicas=2\n'],
    ['{.metadata.labels}', '{"a\\u0026b":"\\u003cx\\u003e","app":"web"}'],
    ['{.spec.template.spec.containers[*].image}', 'nginx:1.14.2 redis'],
    ['{.spec.template.spec.containers[0].ports}', '[{"containerPort":80,"protocol":"TCP"}]'],
    ['{.status.conditions[?(@.type=="Available")].status}', 'True'],
    ['{.status.conditions[-1:].reason}', 'NewReplicaSetAvailable'],
    ["{.metadata['name']}", 'web'],
    ['{.metadata.missing}', ''],
    ['{.status.ratio}', '0.5'],
    ['{.spec.template.spec.containers[0,1].name}', 'c1 c2'],
  ])('%s on a Deployment', (template, expected) => {
    expect(executeJsonPath(template, deployment)).toBe(expected);
  });

  it.each([
    ['{.items[*].metadata.name}', 'a b c'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{.spec.nodeName}{"\\n"}{end}', 'a\tnode-1\nb\t\nc\tnode-2\n'],
    ['{.items[?(@.metadata.labels.app=="x")].metadata.name}', 'a c'],
    ['{.items[?(@.spec.nodeName)].metadata.name}', 'a c'],
    ['{.items[1:3].metadata.name}', 'b c'],
    ['{.items[::2].metadata.name}', 'a c'],
  ])('%s on a list', (template, expected) => {
    expect(executeJsonPath(template, list)).toBe(expected);
  });

  it('refuses bad templates with client-go\'s messages, at parse or at execution', () => {
    const parseError = (t: string) => {
      try {
        parseTemplate(t);
        return null;
      } catch (err) {
        return err instanceof JsonPathError ? err.message : String(err);
      }
    };
    expect(parseError('{.metadata.name')).toBe('unclosed action');
    expect(parseError('{.items[x]}')).toBe('invalid array index x');
    expect(parseError('{.items[0]')).toBe('unclosed action');
    expect(() => executeJsonPath('{.items[99]}', list)).toThrow('array index out of bounds: index 99, length 3');
    expect(() => executeJsonPath('{range .items[*]}{end}{end}', list)).toThrow('not in range, nothing to end');
  });
});
