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
//   --etcd-listen A     serve the model's etcd over etcd's v3 gRPC API at ip:port A (port 0 picks a free one)
//   --etcd-servers U    store in a real etcd (comma-separated client URLs, http://127.0.0.1:2379,…) instead of
//                       the model's: the cluster lives there across restarts; virtual time follows the wall
//                       clock and the run is not deterministic (no --data-dir, --fast-forward or --speed)
//   --dist D            the built page to serve at /podflow/ (default ./dist, made by `npm run build`)
//   --headless          serve kubectl only: no page, no live view (and none of its recording)
//   --hostname H        the host kube-apiserver's identity lease is named after (default: control-plane on the
//                       model's etcd; on a real etcd this machine's name and the process id, so two processes
//                       on one etcd hold two leases; give one to keep the same lease across restarts)
//   --peer-apiserver U  the page URL another server on the same etcd printed: prints a page showing both side
//                       by side (this server's page and the peer's, each attached to its own server)

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sideBySideUrl } from '../protocol/side-by-side.ts';
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
    'etcd-listen': { type: 'string' },
    'etcd-servers': { type: 'string' },
    dist: { type: 'string' },
    headless: { type: 'boolean' },
    hostname: { type: 'string' },
    'peer-apiserver': { type: 'string' },
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

const etcdListen = values['etcd-listen'];
const etcdListenAddress = etcdListen === undefined ? null : /^(\[[0-9a-fA-F:.]+\]|[^:]+):\d+$/.exec(etcdListen);
if (etcdListen !== undefined && etcdListenAddress === null) {
  console.error(`podflow apiserver: --etcd-listen must be ip:port, got "${etcdListen}"`);
  process.exit(2);
}
const etcdServers = values['etcd-servers']?.split(',').filter((u) => u.trim() !== '');
if (etcdServers !== undefined && (values['data-dir'] !== undefined || values['fast-forward'] || values.speed !== undefined)) {
  console.error('podflow apiserver: --etcd-servers keeps the cluster in etcd and runs in step with the wall clock: drop --data-dir, --fast-forward and --speed');
  process.exit(2);
}
if (etcdServers !== undefined && etcdListen !== undefined) {
  console.error('podflow apiserver: --etcd-listen serves the model\'s etcd, and with --etcd-servers there is none: use the real etcd\'s own endpoint');
  process.exit(2);
}

const peer = values['peer-apiserver'];
if (peer !== undefined && !/^https?:\/\/[^/]/.test(peer)) {
  console.error(`podflow apiserver: --peer-apiserver must be the page URL the other server printed (http://127.0.0.1:PORT/podflow/), got "${peer}"`);
  process.exit(2);
}
if (values.hostname !== undefined && !/^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/.test(values.hostname)) {
  console.error(`podflow apiserver: --hostname must be a label value of lowercase letters, digits, '.' and '-' (63 at most), got "${values.hostname}"`);
  process.exit(2);
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
  ...(etcdListen !== undefined ? { etcdListen } : {}),
  ...(etcdServers !== undefined ? { etcdServers } : {}),
  live: values.headless !== true,
  ...(values.hostname !== undefined ? { hostname: values.hostname } : {}),
  distDir: resolve(values.dist ?? 'dist'),
});
const loopback = ['127.0.0.1', '::1', 'localhost'].includes(values.address ?? '127.0.0.1');
if (!loopback && values.token === undefined) {
  console.warn(`podflow apiserver: listening on ${values.address} without --token: anyone who can reach it acts as the cluster admin`);
}
if (etcdListenAddress && !['127.0.0.1', '[::1]', 'localhost'].includes(etcdListenAddress[1]!)) {
  console.warn(`podflow apiserver: serving etcd on ${etcdListen} without authentication: anyone who can reach it reads and writes the cluster's etcd`);
}
const identity = server.host.cluster.apiserver.identityLease.identity;
if (server.host.realEtcd) console.log(`podflow apiserver: kube-apiserver identity ${identity.id} (host ${identity.hostname}), its Lease in kube-system`);
const replayed = server.host.replayed > 0 ? ` (replayed ${server.host.replayed} requests)` : '';
const store = server.host.realEtcd ? ` on the real etcd at ${server.host.realEtcd.client.endpoints.join(',')} (not deterministic)` : '';
// One URL: the page's when there is one (the kubeconfig holds the API's), the API's otherwise.
if (server.pageUrl && server.live?.hasPage) {
  console.log(`Podflow apiserver${store}${replayed}: export KUBECONFIG=${kubeconfig} && kubectl get pods; watch it live at ${server.pageUrl}`);
} else {
  console.log(`Podflow apiserver at ${server.url}${store}${replayed}: export KUBECONFIG=${kubeconfig} && kubectl get pods`);
  if (server.live) console.log(`podflow apiserver: no built page in ${resolve(values.dist ?? 'dist')}: run \`npm run build\` first to watch the cluster live in a browser`);
}
if (peer !== undefined && server.pageUrl && server.live?.hasPage) {
  console.log(`podflow apiserver: the peer at ${peer} (A) and this kube-apiserver, ${identity.id} (B), side by side at ${sideBySideUrl(new URL(server.pageUrl).origin, peer, server.pageUrl)}`);
}
if (server.etcd) console.log(`Podflow etcd at ${server.etcd.address} (etcdctl --endpoints=${server.etcd.address} get / --prefix --keys-only)`);

const shutdown = (): void => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
