// "Go to node": in a graph past `drawAllUpTo` boxes (ClusterGraph.tsx) the kubelets lie far below the control
// plane the view opens on (5,000 nodes stretch over thousands of pixels), so a learner looking for the node
// a Pod was bound to types its name (or number) and the view centres on its box, at the zoom shown, the box
// outlined until another is asked for (found-node.ts, GoToFound in ClusterGraph.tsx). A name the cluster does
// not have is said so, with the nodes it has.

import { Panel } from '@xyflow/react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { goToNode } from './found-node.ts';
import { nodeNamed, nodeRange } from './go-to-node.ts';
import type { layoutTopology } from './layout.ts';

export function GoToNode({ layout }: { readonly layout: ReturnType<typeof layoutTopology> }) {
  const { t, i18n } = useTranslation('canvas');
  const inputId = useId();
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const kubelets = useMemo(() => {
    const byNode = new Map<string, (typeof layout.nodes)[number]>();
    for (const box of layout.nodes) if (box.data.component.role === 'kubelet') byNode.set(box.data.component.node ?? box.data.component.name, box);
    return byNode;
  }, [layout]);
  const range = useMemo(() => nodeRange([...kubelets.keys()]), [kubelets]);

  const go = (event: FormEvent) => {
    event.preventDefault();
    const name = nodeNamed(query, kubelets);
    const box = name === null ? undefined : kubelets.get(name);
    setMissing(box ? null : query.trim());
    goToNode(box ? box.data.component.name : null);
  };

  return (
    <Panel position="bottom-left" className="go-to-node">
      <form role="search" aria-label={t('goToNode')} onSubmit={go} data-testid="go-to-node">
        <label htmlFor={inputId}>{t('goToNode')}</label>
        <input id={inputId} type="search" value={query} placeholder={range?.last ?? ''} autoComplete="off" spellCheck={false}
          aria-invalid={missing !== null} aria-describedby={missing !== null ? `${inputId}-missing` : undefined}
          onChange={(event) => { setQuery(event.target.value); setMissing(null); }} />
        <button type="submit">{t('goToNodeButton')}</button>
        {missing !== null && range && (
          <p id={`${inputId}-missing`} role="status" className="go-to-node-missing">{t('goToNodeMissing', { name: missing, first: range.first, last: range.last, count: kubelets.size, total: kubelets.size.toLocaleString(i18n.language) })}</p>
        )}
      </form>
    </Panel>
  );
}
