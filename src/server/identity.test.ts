import { describe, expect, test } from 'vitest';
import { apiserverID, controlPlaneHostname } from '../sim/apiserver/identity-lease.ts';
import { apiserverIdentity, serverHostname } from './identity.ts';

describe('a server\'s kube-apiserver identity', () => {
  test('is kube-apiserver- and the base32 of the hostname\'s sha224, as the model\'s worked-out one', () => {
    expect(apiserverIdentity(controlPlaneHostname)).toEqual({ hostname: controlPlaneHostname, id: apiserverID });
  });

  test('differs between hosts', () => {
    expect(apiserverIdentity('a').id).not.toBe(apiserverIdentity('b').id);
    expect(apiserverIdentity('a').id).toMatch(/^kube-apiserver-[a-z2-7]{26}$/);
  });

  test('a server names itself after the machine and its process, each server of one process apart, as a label value', () => {
    const [first, second] = [serverHostname(), serverHostname()];
    expect(first.endsWith(`-${process.pid}`)).toBe(true);
    expect(second).toBe(`${first}-2`);
    for (const name of [first, second]) expect(name).toMatch(/^[a-z0-9][a-z0-9.-]{0,62}$/);
  });
});
