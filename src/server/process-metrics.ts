// The server process's own metrics (process_cpu_seconds_total, process_resident_memory_bytes, open file
// descriptors, the Node.js heap and event loop) appended to the model's /metrics text, as a real
// kube-apiserver's /metrics carries its process_* and go_* families. prom-client collects them; the model's
// families (apiserver_*, etcd_*) are written by the model itself (src/sim/apiserver/filters/metrics.ts),
// which also runs in the browser worker where prom-client cannot.

import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

export async function processMetricsText(): Promise<string> {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry.metrics();
}
