// The pods of one group (a node's, or the unbound ones) in a fixed-size area, three ways by how many
// there are and how far the graph is zoomed in:
//   - up to `chipSlots` pods: a chip each, showing the pod name's suffix, its colour the pod's state
//     (podLook), its accessible name the pod and the STATUS kubectl prints;
//   - more, at the graph's usual zoom: the group aggregated, a bar whose parts are the pods in each state
//     (coloured as the chips) and the count of each, so a node of 100 pods costs a handful of elements;
//   - more, zoomed in to `detailZoom` or closer: a dot per pod (up to `dotSlots`), coloured and named
//     as its chip, so each pod can be told apart and hovered again.
// The area's size never depends on the pods, so pods coming and going shift nothing.

import { useStore } from '@xyflow/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PodChip } from '../../protocol/index.ts';
import { chipLabel, chipName, chipSlots, moreName, podLook, type PodGroup, type PodLook } from '../store/pods.ts';
import { useSimSnapshot } from '../store/snapshot.ts';
import './pod-chips.css';

/** The graph's zoom from which a group of more than `chipSlots` pods is drawn a dot per pod. */
export const detailZoom = 1.5;
/** Dots the area holds (4 rows); a group of more stays aggregated at every zoom. */
export const dotSlots = 88;

/** The states in the order the bar and the counts show them: settled first, then in progress, then gone. */
const lookOrder: readonly PodLook[] = ['running', 'starting', 'pending', 'terminating', 'succeeded', 'failed'];

/** How a group is drawn at a zoom. */
export function podsView(total: number, zoom: number): 'chips' | 'dots' | 'summary' {
  if (total <= chipSlots) return 'chips';
  return zoom >= detailZoom && total <= dotSlots ? 'dots' : 'summary';
}

export const PodChips = memo(function PodChips({ group, label }: { readonly group: string; readonly label: string }) {
  const pods = useSimSnapshot((state) => state.pods.groups.get(group));
  const total = pods?.total ?? 0;
  // A boolean selector: the group re-renders when the zoom crosses `detailZoom`, not on every zoom change.
  const zoomedIn = useStore((state) => state.transform[2] >= detailZoom);
  const view = podsView(total, zoomedIn ? detailZoom : 1);
  return (
    <ul className={`pod-chips pod-chips--${view}`} aria-label={label} data-testid="pod-chips" data-group={group} data-total={total} data-view={view}>
      {pods !== undefined && view === 'chips' && pods.shown.map((pod) => <Chip key={pod.key} pod={pod} />)}
      {pods !== undefined && view === 'chips' && pods.more > 0 && (
        <li className="pod-chip pod-chip--more" data-testid="pod-more" aria-label={moreName(pods)} title={moreName(pods)}>+{pods.more}</li>
      )}
      {pods !== undefined && view === 'dots' && pods.all.map((pod) => <Dot key={pod.key} pod={pod} />)}
      {pods !== undefined && view === 'summary' && <Summary pods={pods} />}
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

const Dot = memo(function Dot({ pod }: { readonly pod: PodChip }) {
  const name = chipName(pod);
  return <li className={`pod-dot pod-chip--${podLook(pod)}`} data-testid="pod-dot" data-pod={pod.name} data-status={pod.status} aria-label={name} title={name} />;
});

/** The group aggregated: a bar of its states and their counts. */
function Summary({ pods }: { readonly pods: PodGroup }) {
  const { t } = useTranslation('graph');
  const looks = lookOrder.filter((look) => (pods.looks[look] ?? 0) > 0);
  const total = t('podSummary.summary', { count: pods.total });
  const counts = looks.map((look) => `${pods.looks[look]} ${t(`podSummary.looks.${look}`)}`);
  const name = `${total}: ${counts.join(', ')}`;
  return (
    <li className="pod-summary" data-testid="pod-summary" aria-label={name} title={name}>
      <span className="pod-bar" aria-hidden="true">
        {looks.map((look) => <span key={look} className={`pod-bar-part pod-chip--${look}`} style={{ flexGrow: pods.looks[look] }} />)}
      </span>
      <span className="pod-counts" aria-hidden="true">
        <span className="pod-count-total">{total}</span>
        {looks.map((look, i) => <span key={look} className={`pod-count pod-chip--${look}`} data-look={look}>{counts[i]}</span>)}
      </span>
    </li>
  );
}
