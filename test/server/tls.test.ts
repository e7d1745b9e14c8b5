// The `--token` front's certificate (src/server/tls.ts, from the selfsigned package): its names and
// usages as kube-apiserver's self-signed serving certificate has them, kept across restarts in the data
// dir, and trusted by the real kubectl through the kubeconfig the server writes (skipped, with a message,
// when kubectl is not installed).

import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { selfSignedCertificate } from '../../src/server/tls.ts';
import { findKubectl, startKubectlEnv, type KubectlEnv } from '../kubectl/harness.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/server/tls: kubectl is not on PATH; the real-kubectl TLS check is SKIPPED');

const dirs: string[] = [];
const envs: KubectlEnv[] = [];
afterEach(async () => {
  for (const env of envs.splice(0)) await env.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'podflow-tls-test-'));
  dirs.push(dir);
  return dir;
}

describe('the --token certificate', () => {
  test('is its own CA for the listen address, 127.0.0.1 and localhost, for server auth, on an EC P-256 key', async () => {
    const { cert, key } = await selfSignedCertificate('10.1.2.3');
    const x509 = new X509Certificate(cert);
    expect(x509.subject).toBe('CN=podflow-apiserver');
    expect(x509.issuer).toBe('CN=podflow-apiserver');
    expect(x509.ca).toBe(true);
    expect(x509.subjectAltName?.split(', ').sort()).toEqual(['DNS:localhost', 'IP Address:10.1.2.3', 'IP Address:127.0.0.1']);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(createPrivateKey(key).asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(x509.verify(x509.publicKey)).toBe(true);
  });

  test('names a DNS listen address as DNS, and adds nothing for 127.0.0.1 or 0.0.0.0', async () => {
    const names = async (address: string): Promise<string | undefined> => new X509Certificate((await selfSignedCertificate(address)).cert).subjectAltName;
    expect(await names('podflow.example')).toBe('IP Address:127.0.0.1, DNS:localhost, DNS:podflow.example');
    expect(await names('0.0.0.0')).toBe('IP Address:127.0.0.1, DNS:localhost');
  });

  test('is made once per data dir and read back after', async () => {
    const dir = tempDir();
    const first = await selfSignedCertificate('127.0.0.1', dir);
    expect(await selfSignedCertificate('127.0.0.1', dir)).toEqual(first);
  });

  test.skipIf(!kubectl)('lets the real kubectl in over HTTPS with the kubeconfig\'s token, and no one with another', async () => {
    const env = await startKubectlEnv(kubectl!, { token: 's3cret', dataDir: tempDir() });
    envs.push(env);
    expect(env.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ok = await env.run(['get', 'namespace', 'default', '-o', 'name']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('namespace/default\n');
    const denied = await env.run(['get', 'namespace', 'default', '--token', 'wrong']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(/Unauthorized/);
  });
});
