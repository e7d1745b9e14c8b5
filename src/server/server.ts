// Starts a Podflow apiserver: the simulated cluster (ClusterHost) behind the HTTP front, and the
// kubeconfig that points kubectl at it. main.ts is the command line; tests and benchmarks call this.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { builtinTokens } from '../sim/wire/credentials.ts';
import { ClusterHost, type HostOptions } from './cluster-host.ts';
import { startFront, type RequestLogEntry, type RunningFront } from './http-server.ts';
import type { RequestLimits } from './request-limits.ts';
import { kubeconfigFor } from './kubeconfig.ts';
import { pagePath, startLive, type LiveFront } from './live.ts';
import { selfSignedCertificate } from './tls.ts';
import { startEtcdEndpoint, type RunningEtcdEndpoint } from './etcd-grpc/endpoint.ts';

export interface ServerOptions extends HostOptions {
  readonly address: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string | null;
  /** Where to write the kubeconfig; none writes nothing. */
  readonly kubeconfig?: string;
  /** The front's size limits and timeouts (kube-apiserver's by default). */
  readonly limits?: Partial<RequestLimits>;
  /** The request log (by default 5xx answers on stderr). */
  readonly log?: (entry: RequestLogEntry) => void;
  /** Serve the model's etcd over etcd's v3 gRPC API at this `ip:port` (port 0 picks a free one). */
  readonly etcdListen?: string;
  /** Where the built page is (default ./dist); with `live`, it is served at /podflow/. */
  readonly distDir?: string;
}

export const defaultServerOptions: ServerOptions = {
  seed: 'podflow', nodes: 3, fastForward: false, speed: 1, address: '127.0.0.1', port: 6443, token: null,
};

export interface PodflowServer {
  readonly host: ClusterHost;
  readonly front: RunningFront;
  readonly url: string;
  /** The token the kubeconfig carries. */
  readonly token: string;
  /** The model's etcd endpoint, with `etcdListen`. */
  readonly etcd: RunningEtcdEndpoint | null;
  /** The attached pages' front (null without `live`). */
  readonly live: LiveFront | null;
  /** The page's URL (its token in the fragment with `--token`); null without `live`. */
  readonly pageUrl: string | null;
  close(): Promise<void>;
}

export async function startPodflowServer(options: ServerOptions): Promise<PodflowServer> {
  const host = new ClusterHost(options);
  const tls = options.token !== null ? await selfSignedCertificate(options.address, options.dataDir) : undefined;
  const live = host.live ? startLive({ host, token: options.token, ...(options.distDir ? { distDir: options.distDir } : {}) }) : null;
  const front = await startFront({ host, address: options.address, port: options.port, token: options.token, ...(tls ? { tls } : {}),
    ...(options.limits ? { limits: options.limits } : {}), ...(options.log ? { log: options.log } : {}), ...(live ? { live } : {}) });
  const etcd = options.etcdListen !== undefined ? await startEtcdEndpoint({ host, listen: options.etcdListen }) : null;
  host.start();
  const shownAddress = options.address.includes(':') ? `[${options.address}]` : options.address === '0.0.0.0' ? '127.0.0.1' : options.address;
  const url = `${tls ? 'https' : 'http'}://${shownAddress}:${front.port}`;
  const token = options.token ?? builtinTokens.admin;
  const pageUrl = live ? `${url}${pagePath}${options.token !== null ? `#token=${encodeURIComponent(options.token)}` : ''}` : null;
  if (options.kubeconfig) {
    mkdirSync(dirname(options.kubeconfig), { recursive: true });
    writeFileSync(options.kubeconfig, kubeconfigFor(url, token, tls?.cert), { mode: 0o600 });
  }
  return {
    host, front, url, token, etcd, live, pageUrl,
    close: async () => {
      await etcd?.close();
      host.stop();
      live?.close();
      await front.close();
    },
  };
}
