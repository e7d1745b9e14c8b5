import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../api/time.ts';
import { statusKey } from './status-manager.ts';

// The status manager writes a pod's status only when it differs from the last one it wrote; it keeps a
// hash of that status's JSON instead of the JSON. These check the hash tells apart the changes a status
// goes through.

const status = JSON.stringify({
  phase: 'Running',
  conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: '2023-08-15T00:00:05Z' })),
  hostIP: '172.18.0.3', podIP: '10.244.1.17', podIPs: [{ ip: '10.244.1.17' }], startTime: '2023-08-15T00:00:03Z',
  containerStatuses: [{
    name: 'web', state: { running: { startedAt: '2023-08-15T00:00:05Z' } }, lastState: {}, ready: true, restartCount: 0,
    image: 'docker.io/library/nginx:1.14.2', imageID: 'docker.io/library/nginx@sha256:f7988fb6c02e0ce69257d9bd9cf37ae20a60f1df7563c3a2a6abe24160306b8d',
    containerID: 'containerd://0f3a0c6b4d0b6e2b7d1c0a9e8f7d6c5b4a3928171615141312111009080706050', started: true,
  }],
});

describe('statusKey', () => {
  it('is the same for the same status', () => {
    expect(statusKey(status)).toBe(statusKey(JSON.stringify(JSON.parse(status))));
  });

  it('tells apart every status one character away, and two characters swapped', () => {
    const keys = new Set<number>([statusKey(status)]);
    let variants = 1;
    for (let i = 0; i < status.length; i++) {
      for (const c of ['0', '1', 'a', 'Z', '"', ' ']) {
        if (status[i] === c) continue;
        keys.add(statusKey(status.slice(0, i) + c + status.slice(i + 1)));
        variants++;
      }
      if (i > 0 && status[i] !== status[i - 1]) {
        keys.add(statusKey(status.slice(0, i - 1) + status[i] + status[i - 1] + status.slice(i + 1)));
        variants++;
      }
    }
    expect(keys.size).toBe(variants);
  });

  it('tells apart a phase or condition that changed, and 20,000 transition times a second apart', () => {
    expect(statusKey(status.replace('"Running"', '"Pending"'))).not.toBe(statusKey(status));
    expect(statusKey(status.replace('"ready":true', '"ready":false'))).not.toBe(statusKey(status));
    const keys = new Set<number>();
    for (let s = 0; s < 20_000; s++) {
      const t = formatTimestamp(1_692_057_600_000 + s * 1000);
      keys.add(statusKey(status.replace('2023-08-15T00:00:05Z', t)));
    }
    expect(keys.size).toBe(20_000);
  });
});
