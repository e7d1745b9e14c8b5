// A self-signed certificate for the HTTPS listener. kubectl sends a bearer token only over TLS, so a
// server started with `--token` listens on HTTPS with a certificate made here by the openssl command
// line (valid for the listen address, 127.0.0.1 and localhost); the kubeconfig trusts exactly it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
}

/** Reuses `dir/tls.{crt,key}` when present (dir given), else makes a new pair there or in a temp dir. */
export function selfSignedCertificate(address: string, dir?: string): TlsMaterial {
  if (dir && existsSync(join(dir, 'tls.crt')) && existsSync(join(dir, 'tls.key'))) {
    return { cert: readFileSync(join(dir, 'tls.crt'), 'utf8'), key: readFileSync(join(dir, 'tls.key'), 'utf8') };
  }
  const work = dir ?? mkdtempSync(join(tmpdir(), 'podflow-tls-'));
  const isIp = /^[\d.]+$/.test(address) || address.includes(':');
  const san = ['IP:127.0.0.1', 'DNS:localhost', ...(address !== '127.0.0.1' && address !== '0.0.0.0' ? [isIp ? `IP:${address}` : `DNS:${address}`] : [])];
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '365',
    '-subj', '/CN=podflow-apiserver', '-addext', `subjectAltName=${san.join(',')}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,digitalSignature,keyCertSign',
    '-addext', 'extendedKeyUsage=serverAuth',
    '-keyout', join(work, 'tls.key'), '-out', join(work, 'tls.crt'),
  ], { stdio: 'ignore' });
  const material = { cert: readFileSync(join(work, 'tls.crt'), 'utf8'), key: readFileSync(join(work, 'tls.key'), 'utf8') };
  if (!dir) rmSync(work, { recursive: true, force: true });
  return material;
}
