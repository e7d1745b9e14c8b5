// The editor reads and writes YAML as the manifest parser its apply goes through (kubectl's: YAML 1.1
// scalars, as go-yaml v2 under sigs.k8s.io/yaml). The two live in layers that share no module (src/ui
// and src/sim), so this test holds them together.

import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/sim/api/manifest.ts';
import { carryEdits, readDocument, syntaxProblems } from '../../src/ui/editor/yaml-check.ts';

const manifest = (data: string): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  resourceVersion: "7"
data:
${data}`;

/** What kubectl's parser makes of a one-object manifest. */
function asKubectlReads(text: string): unknown {
  const parsed = parseManifest(text, 'flags.yaml');
  expect(parsed.errors).toEqual([]);
  return parsed.objects[0]!.object;
}

describe('the editor reads YAML as kubectl does', () => {
  const yaml11 = manifest('  on: yes\n  answer: y\n  off: n\n  mode: 0644\n  port: 0x1F\n  quoted: "yes"\n  time: 1:30\n');

  it('on: yes / y / octal 0644 (and YAML 1.1\'s other scalars) read the same in the editor and in the manifest parser', () => {
    const kubectl = asKubectlReads(yaml11);
    expect(readDocument(yaml11)).toEqual(kubectl);
    expect((kubectl as { data: unknown }).data).toEqual({ true: true, answer: true, false: false, mode: 420, port: 31, quoted: 'yes', time: 90 });
  });

  it('merge keys (<<) are merged in both', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: base
  labels: { app: web }
data:
  <<: { a: "1" }
  b: "2"
`;
    expect(readDocument(text)).toEqual(asKubectlReads(text));
    expect((asKubectlReads(text) as { data: unknown }).data).toEqual({ a: '1', b: '2' });
  });

  it('finds no syntax problem in YAML 1.1 that kubectl reads', () => {
    expect(syntaxProblems(yaml11)).toEqual([]);
  });

  it('carries edits over as YAML that kubectl reads back as the edited object (strings that YAML 1.1 reads as other scalars stay quoted)', () => {
    const original = manifest('  keep: "1"\n');
    const edited = manifest('  keep: "1"\n  word: "y"\n  mode: "0644"\n  on: yes\n');
    const fresh = original.replace('resourceVersion: "7"', 'resourceVersion: "9"');
    const carried = carryEdits(original, edited, fresh);
    expect(carried).not.toBeNull();
    const back = asKubectlReads(carried!) as { metadata: { resourceVersion: string }; data: unknown };
    expect(back.data).toEqual({ keep: '1', word: 'y', mode: '0644', true: true });
    expect(back.metadata.resourceVersion).toBe('9');
  });
});
