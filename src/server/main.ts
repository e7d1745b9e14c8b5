// `npm run apiserver -- [flags]`: a simulated Kubernetes cluster behind a Kubernetes-compatible HTTP
// server on 127.0.0.1, for real kubectl. Flags:
//   --port N            port (default 6443; 0 picks a free one)
//   --address A         listen address (default 127.0.0.1; anything else must be asked for)
//   --seed S            the simulation's seed (default podflow)
//   --nodes N           worker nodes (default 3)
//   --fast-forward      run queued work at once instead of in step with the wall clock (never ahead of it:
//                       the cluster starts 30 minutes before the wall clock; later work waits for it)
//   --speed X           virtual seconds per wall second when pacing (default 1)
//   --token T           require this bearer token (the kubeconfig carries it)
//   --data-dir D        keep the seed and command log in D/cluster.jsonl and replay it on start
//   --kubeconfig F      where to write the kubeconfig (default ./podflow.kubeconfig)
//   --dist D            the built page to serve at /podflow/ (default ./dist, made by `npm run build`)
//   --headless          serve kubectl only: no page, no live view (and none of its recording)

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultServerOptions, startPodflowServer } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    address: { type: 'string' },
    seed: { type: 'string' },
    nodes: { type: 'string' },
    'fast-forward': { type: 'boolean' },
    speed: { type: 'string' },
    token: { type: 'string' },
    'data-dir': { type: 'string' },
    kubeconfig: { type: 'string' },
    dist: { type: 'string' },
    headless: { type: 'boolean' },
  },
  strict: true,
});

function positiveNumber(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    console.error(`podflow apiserver: --${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${text}"`);
    process.exit(2);
  }
  return n;
}

const kubeconfig = resolve(values.kubeconfig ?? 'podflow.kubeconfig');
const server = await startPodflowServer({
  ...defaultServerOptions,
  seed: values.seed ?? defaultServerOptions.seed,
  nodes: Math.floor(positiveNumber('nodes', values.nodes, defaultServerOptions.nodes)),
  fastForward: values['fast-forward'] ?? false,
  speed: positiveNumber('speed', values.speed, 1),
  address: values.address ?? defaultServerOptions.address,
  port: Math.floor(positiveNumber('port', values.port, defaultServerOptions.port, true)),
  token: values.token ?? null,
  kubeconfig,
  ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {}),
  live: values.headless !== true,
  distDir: resolve(values.dist ?? 'dist'),
});
const loopback = ['127.0.0.1', '::1', 'localhost'].includes(values.address ?? '127.0.0.1');
if (!loopback && values.token === undefined) {
  console.warn(`podflow apiserver: listening on ${values.address} without --token: anyone who can reach it acts as the cluster admin`);
}
const replayed = server.host.replayed > 0 ? ` (replayed ${server.host.replayed} requests)` : '';
// One URL: the page's when there is one (the kubeconfig holds the API's), the API's otherwise.
if (server.pageUrl && server.live?.hasPage) {
  console.log(`Podflow apiserver${replayed}: export KUBECONFIG=${kubeconfig} && kubectl get pods; watch it live at ${server.pageUrl}`);
} else {
  console.log(`Podflow apiserver at ${server.url}${replayed}: export KUBECONFIG=${kubeconfig} && kubectl get pods`);
  if (server.live) console.log(`podflow apiserver: no built page in ${resolve(values.dist ?? 'dist')}: run \`npm run build\` first to watch the cluster live in a browser`);
}

const shutdown = (): void => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
