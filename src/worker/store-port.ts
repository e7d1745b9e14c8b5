// The saved clusters' store and locks across a MessagePort, for a simulation in a process of its own
// (src/ui/sim-process.ts). Its sandboxed frame has an opaque origin, with no IndexedDB and no Web Locks of
// the page's; so a small worker of the page's origin (storage.worker.ts) opens the store and takes the
// locks, and answers the simulation's calls: `serveStore` on that side, `storeOverPort` on the simulation's.
// Every call carries an id and is answered once, with its value or its error (a StorageError keeps its
// fault, so the page says what it says for the same fault in a worker of its own). The store's warnings
// (another tab blocking an upgrade, a newer version opened elsewhere) come back as notices. Calls are sent
// in the order they are made and each starts as it arrives, so IndexedDB queues their transactions in that
// order, as it would for calls made in one worker.

import { StorageError, type ClusterStore, type OpenOptions, type SavedStore, type StorageFault } from './persistence.ts';
import type { ClusterLocks } from './saved-clusters.ts';

type Method = keyof SavedStore;

type Call =
  | { readonly id: number; readonly call: 'open' }
  | { readonly id: number; readonly call: 'store'; readonly method: Method; readonly args: readonly unknown[] }
  | { readonly id: number; readonly call: 'lock'; readonly name: string }
  | { readonly id: number; readonly call: 'unlock'; readonly lock: number };

interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly fault?: StorageFault;
}

type Reply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: ErrorData }
  | { readonly notice: 'blocked' | 'versionChange' };

function errorData(error: unknown): ErrorData {
  if (error instanceof StorageError) return { name: error.name, message: error.message, fault: error.fault };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

function errorOf(data: ErrorData): Error {
  if (data.fault) return new StorageError(data.fault, data.message);
  const error = new Error(data.message);
  error.name = data.name;
  return error;
}

/** Answers the calls coming over `port` with the store `open` opens and the locks of `locks`. */
export function serveStore(port: MessagePort, open: (options: OpenOptions) => Promise<ClusterStore>, locks: ClusterLocks): void {
  let store: ClusterStore | null = null;
  const held = new Map<number, () => void>();
  let lastLock = 0;
  const answer = async (message: Call): Promise<unknown> => {
    switch (message.call) {
      case 'open':
        store = await open({
          onBlocked: () => port.postMessage({ notice: 'blocked' } satisfies Reply),
          onVersionChange: () => port.postMessage({ notice: 'versionChange' } satisfies Reply),
        });
        return null;
      case 'store': {
        if (!store) throw new StorageError('unavailable', 'the saved clusters are not open');
        const method = store[message.method] as (...args: readonly unknown[]) => unknown;
        return await method.apply(store, [...message.args]);
      }
      case 'lock': {
        const release = await locks.acquire(message.name);
        if (!release) return null;
        held.set(++lastLock, release);
        return lastLock;
      }
      case 'unlock':
        held.get(message.lock)?.();
        held.delete(message.lock);
        return null;
    }
  };
  port.addEventListener('message', (event: MessageEvent<Call>) => {
    const message = event.data;
    answer(message).then(
      (value) => port.postMessage({ id: message.id, value } satisfies Reply),
      (error: unknown) => port.postMessage({ id: message.id, error: errorData(error) } satisfies Reply),
    );
  });
  port.start();
}

/**
 * The store and locks a `serveStore` at the other end of `port` holds, as SavedClusters takes them. `gone`
 * says the other end will never answer (its worker could not start, or failed): every call waiting and every
 * later one fails as a store that is unavailable, so the simulation goes on in memory and says so.
 */
export function storeOverPort(port: MessagePort): {
  readonly openStore: (options: OpenOptions) => Promise<SavedStore>;
  readonly locks: ClusterLocks;
  readonly gone: (reason: string) => void;
} {
  let lastId = 0;
  let goneError: StorageError | null = null;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let notices: OpenOptions = {};
  port.addEventListener('message', (event: MessageEvent<Reply>) => {
    const reply = event.data;
    if ('notice' in reply) {
      (reply.notice === 'blocked' ? notices.onBlocked : notices.onVersionChange)?.();
      return;
    }
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if ('error' in reply) pending.reject(errorOf(reply.error));
    else pending.resolve(reply.value);
  });
  port.start();
  // Distributes over Call's members, so `send` takes any call without its id.
  type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
  const send = (call: WithoutId<Call>) => new Promise<unknown>((resolve, reject) => {
    if (goneError) {
      reject(goneError);
      return;
    }
    const id = ++lastId;
    waiting.set(id, { resolve, reject });
    port.postMessage({ ...call, id });
  });
  const remote = <M extends Method>(method: M) => ((...args: unknown[]) => send({ call: 'store', method, args })) as unknown as SavedStore[M];
  const store: SavedStore = {
    // Closing is not waited for, as ClusterStore.close is not.
    close: () => void send({ call: 'store', method: 'close', args: [] }).catch(() => undefined),
    list: remote('list'),
    get: remote('get'),
    getMeta: remote('getMeta'),
    setMeta: remote('setMeta'),
    save: remote('save'),
    load: remote('load'),
    rename: remote('rename'),
    duplicate: remote('duplicate'),
    delete: remote('delete'),
  };
  return {
    openStore: async (options) => {
      notices = options;
      await send({ call: 'open' });
      return store;
    },
    locks: {
      acquire: async (name) => {
        const lock = (await send({ call: 'lock', name })) as number | null;
        return lock === null ? null : () => void send({ call: 'unlock', lock }).catch(() => undefined);
      },
    },
    gone: (reason) => {
      if (goneError) return;
      goneError = new StorageError('unavailable', `The page's storage worker ${reason}: this cluster lives in memory only and is lost on reload.`);
      for (const pending of waiting.values()) pending.reject(goneError);
      waiting.clear();
      port.close();
    },
  };
}
