// How the real-etcd member sends its requests: as they are delivered (a live server, as kube-apiserver
// does), or, serialized, one at a time in delivery order, each waiting for its answer before the next
// is sent (a run comparable with the model etcd's: etcd then applies writes in the model's order).

export class RequestQueue {
  private readonly queue: Array<() => Promise<void>> = [];
  private draining = false;

  constructor(private readonly serialize: boolean) {}

  /** Starts `work` now, or, serialized, after the work queued before it has finished. */
  run(work: () => Promise<void>): void {
    if (!this.serialize) {
      void work();
      return;
    }
    this.queue.push(work);
    if (this.draining) return;
    this.draining = true;
    void (async () => {
      while (this.queue.length > 0) await this.queue.shift()!();
      this.draining = false;
    })();
  }
}
