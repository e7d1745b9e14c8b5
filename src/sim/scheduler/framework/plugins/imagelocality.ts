// ImageLocality (Score): a node that already has the pod's images scores higher, by each image's size
// times the fraction of nodes that have it, scaled between 23 MB and 1000 MB per container.
// Models pkg/scheduler/framework/plugins/imagelocality/image_locality.go. Its PreScore here counts, once
// per pod, the nodes having each image: upstream reads that count (ImageStateSummary.NumNodes) from the
// cache's snapshot.

import type { Node } from '../../../api/types/core.ts';
import type { PreScorePlugin, ScorePlugin } from '../interface.ts';
import { maxNodeScore } from '../types.ts';

const mb = 1024 * 1024;
const minThreshold = 23 * mb;
const preScoreStateKey = 'PreScoreImageLocality';

interface ImageState {
  /** The pod's containers' images, normalized. */
  readonly images: readonly string[];
  /** How many nodes have each image. */
  readonly nodesWith: ReadonlyMap<string, number>;
  readonly totalNodes: number;
}

function imageKey(image: string): string {
  let ref = image;
  if (!ref.includes('/')) ref = `docker.io/library/${ref}`;
  else if (!ref.split('/')[0]!.includes('.')) ref = `docker.io/${ref}`;
  if (!ref.slice(ref.lastIndexOf('/') + 1).includes(':')) ref += ':latest';
  return ref;
}

function onNode(node: Node, image: string) {
  return (node.status?.images ?? []).find((i) => (i.names ?? []).includes(image));
}

export const imageLocality: PreScorePlugin & ScorePlugin = {
  name: 'ImageLocality',
  preScore(state, pod, _feasible, all) {
    const images = pod.spec.containers.map((c) => imageKey(c.image ?? ''));
    const nodesWith = new Map<string, number>();
    for (const image of images) if (!nodesWith.has(image)) nodesWith.set(image, all.filter((i) => onNode(i.node, image)).length);
    state.write(preScoreStateKey, { images, nodesWith, totalNodes: all.length } satisfies ImageState);
    return true;
  },
  score(state, pod, { node }) {
    const { images, nodesWith, totalNodes } = state.read<ImageState>(preScoreStateKey);
    const maxThreshold = 1000 * mb * pod.spec.containers.length;
    let sum = 0;
    for (const image of images) {
      const present = onNode(node, image);
      if (!present) continue;
      const spread = nodesWith.get(image)! / totalNodes;
      sum += Math.floor((present.sizeBytes ?? 0) * spread);
    }
    const clamped = Math.min(Math.max(sum, minThreshold), maxThreshold);
    return Math.floor((maxNodeScore * (clamped - minThreshold)) / (maxThreshold - minThreshold));
  },
};
