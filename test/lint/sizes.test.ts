// Sizes a newcomer can read (issue 21): no class under src/ with more than 30 members, and no file under
// src/sim over 400 lines unless a header line says why (`// Long because: …`). Members are counted as
// TypeScript's parser sees them: properties, methods, accessors (a get/set pair counts twice), index
// signatures and the constructor's parameter properties; the constructor itself is not a member.
//
// `inProgress` names the files other helpers are cutting this session and the classes outside the
// simulation's apiserver, controllers, kubelet and scheduler that no one cuts yet; the lead empties it
// as they are cut.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const maxLines = 400;
const maxMembers = 30;

const inProgress = new Set([
  'src/sim/etcd/server.ts',
  'src/sim/etcd/raft/raft.ts',
  'src/sim/engine/engine.ts',
  'src/sim/engine/engine.test.ts',
  'src/sim/apiserver/storage/cacher.ts',
  'src/sim/apiserver/storage/cacher.test.ts',
  'src/sim/apiserver/storage/storage-contract.ts',
  'src/worker/host.ts',
  'src/sim/api/schema-data.ts',
  'src/sim/api/strategic-merge-patch.ts',
  'src/sim/api/validation/pod.ts',
  'src/sim/api/protobuf/codec.ts',
  'src/sim/api/protobuf/field-numbers.ts',
  'src/sim/api/printers.ts',
  'src/sim/api/types/core.ts',
  'src/sim/api/labels.ts',
  'src/sim/etcd/raft/testing.ts',
  'src/server/cluster-host.ts',
  'src/server/real-etcd/real-etcd-member.ts',
  'src/worker/saved-clusters.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The classes of one file with their member counts. */
function classMembers(fileName: string, text: string): Array<{ readonly name: string; readonly members: number }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: Array<{ name: string; members: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      let members = 0;
      for (const member of node.members) {
        if (ts.isConstructorDeclaration(member)) {
          members += member.parameters.filter((p) => ts.isParameterPropertyDeclaration(p, member)).length;
        } else if (!ts.isSemicolonClassElement(member)) {
          members++;
        }
      }
      found.push({ name: node.name?.text ?? '(anonymous)', members });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles('src');
const simFiles = files.filter((f) => f.startsWith('src/sim/'));

describe('sizes', () => {
  it('counts members as the parser sees them', () => {
    const text = 'class A { a = 1; private readonly b: number; constructor(readonly c: number, d: number) { this.b = d; } get e() { return 1; } set e(v: number) {} f(): void {} static g(): void {} }';
    expect(classMembers('a.ts', text)).toEqual([{ name: 'A', members: 7 }]);
  });

  it('finds files to check', () => {
    expect(simFiles.length).toBeGreaterThan(100);
  });

  it(`no class under src/ has more than ${maxMembers} members`, () => {
    const over = files
      .filter((f) => !inProgress.has(f))
      .flatMap((f) => classMembers(f, readFileSync(join(root, f), 'utf8')).filter((c) => c.members > maxMembers).map((c) => `${f}: ${c.name} (${c.members})`));
    expect(over).toEqual([]);
  });

  it(`no file under src/sim is over ${maxLines} lines without a "// Long because:" header line`, () => {
    const over = simFiles.filter((f) => {
      if (inProgress.has(f)) return false;
      const lines = readFileSync(join(root, f), 'utf8').split('\n');
      if (lines.length - (lines.at(-1) === '' ? 1 : 0) <= maxLines) return false;
      const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
      return !header.some((l) => l.startsWith('// Long because:'));
    });
    expect(over).toEqual([]);
  });

  it('the in-progress list names only files that exist', () => {
    const known = new Set(files.map((f) => relative(root, join(root, f))));
    expect([...inProgress].filter((f) => !known.has(f))).toEqual([]);
  });
});
