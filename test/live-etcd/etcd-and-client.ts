// One real etcd per describe block, with an `etcd3` client on it: started before the block's tests,
// closed and stopped after them.

import { afterAll, beforeAll } from 'vitest';
import { Etcd3 } from 'etcd3';
import { RealEtcd } from '../etcd/real-etcd.ts';

export interface EtcdAndClient {
  /** The running etcd; only inside a test. */
  etcd(): RealEtcd;
  /** A client on it; only inside a test. */
  client(): Etcd3;
}

/** Registers the block's hooks; call it in a `describe` that is skipped when `binary` is null. */
export function etcdAndClient(binary: string | null): EtcdAndClient {
  let etcd: RealEtcd | undefined;
  let client: Etcd3 | undefined;
  beforeAll(async () => {
    etcd = await RealEtcd.start(binary!);
    client = new Etcd3({ hosts: etcd.url });
  }, 60_000);
  afterAll(() => {
    client?.close();
    etcd?.stop();
  });
  return { etcd: () => etcd!, client: () => client! };
}
