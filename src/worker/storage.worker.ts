// The saved clusters' worker for a simulation in a process of its own (src/ui/sim-process.ts): it runs at the
// page's origin, where IndexedDB and Web Locks are, and answers the simulation's calls over the port the page
// hands it (store-port.ts). It holds no cluster: a save passes through it on its way to IndexedDB.

import { ClusterStore } from './persistence.ts';
import { webLocks } from './saved-clusters.ts';
import { serveStore } from './store-port.ts';

self.addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0];
  if (port) serveStore(port, (options) => ClusterStore.open(options), webLocks());
});
