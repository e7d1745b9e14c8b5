// A server process's kube-apiserver identity: its host's name and the APIServerID kube-apiserver derives
// from it, `kube-apiserver-` + base32(sha224(hostname)[:16]) lowercased without padding. The identity
// lease (src/sim/apiserver/identity-lease.ts) is named after it, so each process on one etcd holds its own.
// Models k8s pkg/controlplane/apiserver/config.go (APIServerID) and pkg/controlplane/instance.go.

import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { ApiserverIdentity } from '../sim/apiserver/identity-lease.ts';

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lowercased. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** The identity of a kube-apiserver on the host `name`. */
export function apiserverIdentity(name: string): ApiserverIdentity {
  return { hostname: name, id: `kube-apiserver-${base32(createHash('sha224').update(name).digest().subarray(0, 16))}` };
}

/** Servers this process has named (a test may run several in one process). */
let named = 0;

/**
 * A host name for a server that names none (`--hostname`): this machine's, with the process id (and a
 * count after the process's first server), so that two servers on one machine and one etcd are two
 * kube-apiservers. It is also the identity lease's `kubernetes.io/hostname` label, so it is cut to a label
 * value (63 of [a-z0-9.-], alphanumeric ends).
 */
export function serverHostname(): string {
  named++;
  const machine = hostname().toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
  const name = `${machine}-${process.pid}${named > 1 ? `-${named}` : ''}`;
  return name.slice(Math.max(0, name.length - 63)).replace(/^[^a-z0-9]+/, '');
}
