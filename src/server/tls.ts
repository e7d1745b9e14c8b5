// A self-signed certificate for the HTTPS listener. kubectl sends a bearer token only over TLS, so a
// server started with `--token` listens on HTTPS with a certificate made here (the selfsigned package,
// Node's WebCrypto underneath): an EC P-256 key, CN podflow-apiserver, valid for a year for the listen
// address, 127.0.0.1 and localhost, its own CA (basicConstraints CA:TRUE, keyUsage digitalSignature and
// keyCertSign, extendedKeyUsage serverAuth) so that the kubeconfig can trust exactly it.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
}

/** The subjectAltName entries: 127.0.0.1, localhost and the listen address (an IP or a DNS name) when it is another. */
function subjectAltNames(address: string): Array<{ type: 2; value: string } | { type: 7; ip: string }> {
  const extra = address !== '127.0.0.1' && address !== '0.0.0.0' ? [isIP(address) ? { type: 7 as const, ip: address } : { type: 2 as const, value: address }] : [];
  return [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }, ...extra];
}

/** Reuses `dir/tls.{crt,key}` when present (dir given), else makes a new pair (and keeps it in dir when given). */
export async function selfSignedCertificate(address: string, dir?: string): Promise<TlsMaterial> {
  if (dir && existsSync(join(dir, 'tls.crt')) && existsSync(join(dir, 'tls.key'))) {
    return { cert: readFileSync(join(dir, 'tls.crt'), 'utf8'), key: readFileSync(join(dir, 'tls.key'), 'utf8') };
  }
  const pems = await generate([{ name: 'commonName', value: 'podflow-apiserver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: subjectAltNames(address) },
    ],
  });
  const material = { cert: pems.cert, key: pems.private };
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tls.crt'), material.cert);
    writeFileSync(join(dir, 'tls.key'), material.key, { mode: 0o600 });
  }
  return material;
}
