// The pods of one group (a node's, or the unbound ones) as chips in a fixed-size grid: the chip shows the
// pod name's suffix, its colour the pod's state (podLook), its accessible name the pod and the STATUS
// kubectl prints. At most `chipSlots` slots; when there are more pods the last slot says "+K more".
// The grid's size never depends on the pods, so pods coming and going shift nothing.

import { memo } from 'react';
import type { PodChip } from '../../protocol/index.ts';
import { chipLabel, chipName, moreName, podLook } from '../store/pods.ts';
import { useSim } from '../store/sim-context.ts';

export const PodChips = memo(function PodChips({ group, label }: { readonly group: string; readonly label: string }) {
  const pods = useSim((state) => state.pods.groups.get(group));
  return (
    <ul className="pod-chips" aria-label={label} data-testid="pod-chips" data-group={group} data-total={pods?.total ?? 0}>
      {pods?.shown.map((pod) => <Chip key={pod.key} pod={pod} />)}
      {pods !== undefined && pods.more > 0 && (
        <li className="pod-chip pod-chip--more" data-testid="pod-more" aria-label={moreName(pods)} title={moreName(pods)}>+{pods.more}</li>
      )}
    </ul>
  );
});

const Chip = memo(function Chip({ pod }: { readonly pod: PodChip }) {
  const name = chipName(pod);
  return (
    <li
      className={`pod-chip pod-chip--${podLook(pod)}`}
      data-testid="pod-chip"
      data-pod={pod.name}
      data-node={pod.node ?? ''}
      data-status={pod.status}
      aria-label={name}
      title={name}
    >
      {chipLabel(pod.name)}
    </li>
  );
});
