// etcd's request ID generator, which also picks lease IDs: the member ID's low 16 bits, then 40 bits of
// the start time in ms, then an 8-bit counter that carries into the time bits; each ID is the next
// value. Lease IDs are the next ID with the top bit cleared. Models pkg/idutil/id.go and
// etcdserver/v3_server.go LeaseGrant.
//
// The simulation advances the generator once per proposal (every write request, grant, revoke,
// compaction) and once per linearizable read, as etcd does; the count of internal requests (e.g.
// raft's own) is not modelled, so IDs match a real etcd's shape, not its exact values.

const tsLen = 40n;
const cntLen = 8n;
const suffixLen = tsLen + cntLen;
const lowMask = (bits: bigint): bigint => (1n << bits) - 1n;

export class IdGenerator {
  private readonly prefix: bigint;
  private suffix: bigint;

  constructor(memberId: string, startMs: number) {
    this.prefix = (BigInt(memberId) & 0xffffn) << suffixLen;
    this.suffix = (BigInt(Math.floor(startMs)) & lowMask(tsLen)) << cntLen;
  }

  /** The next request ID, as a decimal uint64. */
  next(): string {
    this.suffix++;
    return (this.prefix | (this.suffix & lowMask(suffixLen))).toString();
  }

  /** The next ID as a positive int64 lease ID (never 0). */
  nextLeaseId(): string {
    for (;;) {
      const id = BigInt(this.next()) & lowMask(63n);
      if (id !== 0n) return id.toString();
    }
  }
}
