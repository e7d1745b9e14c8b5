// The layers of DESIGN.md §2 (`ui → protocol ← worker → sim`, `server → sim`, and clients apart from
// kube-apiserver inside sim) are held by eslint.config.js; this runs ESLint on one import per layer, in
// memory, as a file in that layer, and expects the wrong ones refused and the right ones let through.

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedImports(filePath: string, specifier: string, how: 'value' | 'type' = 'value'): Promise<string[]> {
  const source = how === 'value' ? `import { x } from '${specifier}';\nexport const y = x;\n` : `import type { x } from '${specifier}';\nexport type y = x;\n`;
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

const wrong: ReadonlyArray<readonly [layer: string, file: string, specifier: string]> = [
  ['sim', 'src/sim/engine/layer-probe.ts', '../../ui/format.ts'],
  ['sim', 'src/sim/cluster-probe.ts', '../worker/host.ts'],
  ['sim', 'src/sim/api/layer-probe.ts', '../../protocol/index.ts'],
  ['sim', 'src/sim/layer-probe.ts', '../server/server.ts'],
  ['sim client', 'src/sim/client/layer-probe.ts', '../apiserver/server.ts'],
  ['sim controllers', 'src/sim/controllers/layer-probe.ts', '../apiserver/registry/base.ts'],
  ['sim scheduler', 'src/sim/scheduler/layer-probe.ts', '../apiserver/filters/authentication.ts'],
  ['sim kubelet', 'src/sim/kubelet/layer-probe.ts', '../apiserver/storage/codec.ts'],
  ['protocol', 'src/protocol/layer-probe.ts', '../sim/cluster.ts'],
  ['protocol', 'src/protocol/layer-probe.ts', '../worker/host.ts'],
  ['protocol', 'src/protocol/layer-probe.ts', '../ui/format.ts'],
  ['protocol', 'src/protocol/layer-probe.ts', '../server/server.ts'],
  ['protocol', 'src/protocol/layer-probe.ts', '../sim/messages/index.ts'],
  ['worker', 'src/worker/layer-probe.ts', '../ui/format.ts'],
  ['worker', 'src/worker/console/layer-probe.ts', '../../server/server.ts'],
  ['worker test', 'src/worker/layer-probe.test.ts', '../ui/App.tsx'],
  ['server', 'src/server/layer-probe.ts', '../worker/persistence.ts'],
  ['server', 'src/server/layer-probe.ts', '../worker/sim.worker.ts'],
  ['server', 'src/server/layer-probe.ts', '../ui/format.ts'],
  ['ui', 'src/ui/graph/layer-probe.ts', '../../sim/cluster.ts'],
  ['ui', 'src/ui/layer-probe.tsx', '../worker/host.ts'],
  ['ui', 'src/ui/layer-probe.ts', '../server/server.ts'],
];

const right: ReadonlyArray<readonly [layer: string, file: string, specifier: string]> = [
  ['server', 'src/server/layer-probe.ts', '../worker/host.ts'],
  ['sim client', 'src/sim/client/layer-probe.ts', '../wire/http.ts'],
  ['sim scheduler', 'src/sim/scheduler/layer-probe.ts', '../wire/credentials.ts'],
  ['sim apiserver', 'src/sim/apiserver/layer-probe.ts', '../wire/http.ts'],
  ['worker', 'src/worker/layer-probe.ts', '../sim/cluster.ts'],
  ['worker', 'src/worker/layer-probe.ts', '../protocol/index.ts'],
  ['worker test', 'src/worker/layer-probe.test.ts', '../ui/scenarios/plan.ts'],
  ['server', 'src/server/layer-probe.ts', '../sim/cluster.ts'],
  ['ui', 'src/ui/layer-probe.ts', '../protocol/index.ts'],
];

describe('layers', () => {
  it.each(wrong)('%s refuses %s → %s', async (_layer, file, specifier) => {
    expect(await restrictedImports(file, specifier)).toHaveLength(1);
  });

  it.each(right)('%s may import: %s → %s', async (_layer, file, specifier) => {
    expect(await restrictedImports(file, specifier)).toEqual([]);
  });

  it('protocol takes the message map from src/sim/messages as types only', async () => {
    expect(await restrictedImports('src/protocol/layer-probe.ts', '../sim/messages/index.ts', 'type')).toEqual([]);
    expect(await restrictedImports('src/protocol/layer-probe.ts', '../sim/cluster.ts', 'type')).toHaveLength(1);
  });
});
