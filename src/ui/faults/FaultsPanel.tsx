// Faults as controls: each button injects one fault of src/sim/faults.ts as a user action (a message of
// the user component, logged on the timeline like any command), so what it sets off animates and steps:
// Pending pods with the scheduler stopped, 410 and relists after a compaction and a broken etcd watch stream, NotReady nodes and evictions,
// ImagePullBackOff, CrashLoopBackOff.

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FaultSpec } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';

export function FaultsPanel() {
  const { t } = useTranslation('faults');
  const actions = useSimActions();
  const topology = useSim((s) => s.cluster?.topology);
  const components = (topology?.components ?? []).filter((c) => c.modelled && (c.role === 'kube-scheduler' || c.role === 'kube-controller-manager' || c.role === 'kubelet')).map((c) => c.name);
  const nodes = (topology?.components ?? []).filter((c) => c.role === 'kubelet' && c.node).map((c) => c.node!);
  const links = (topology?.links ?? []).map((l) => `${l.a}|${l.b}`);
  const [component, setComponent] = useState('kube-scheduler');
  const [node, setNode] = useState('node-1');
  const [link, setLink] = useState('');
  const [latency, setLatency] = useState('200');
  const [image, setImage] = useState('nginx:1.16');
  const [after, setAfter] = useState('5');
  const [exitCode, setExitCode] = useState('1');
  const [last, setLast] = useState<string | null>(null);
  /** `label` is the note's text, said in the chosen language. */
  const inject = (fault: FaultSpec, label: string) => {
    actions.injectFault(fault);
    setLast(label);
  };
  const chosenLink = link || links[0] || '';
  return (
    <div className="faults-panel">
      <fieldset>
        <legend>{t('process.legend')}</legend>
        <select aria-label={t('process.component')} value={component} onChange={(e) => setComponent(e.target.value)}>
          {components.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
        <button type="button" onClick={() => inject({ type: 'stop', component }, t('process.stopped', { component }))}>{t('process.stop')}</button>
        <button type="button" onClick={() => inject({ type: 'start', component }, t('process.started', { component }))}>{t('process.start')}</button>
      </fieldset>
      <fieldset>
        <legend>{t('node.legend')}</legend>
        <select aria-label={t('node.node')} value={node} onChange={(e) => setNode(e.target.value)}>
          {nodes.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
        <button type="button" onClick={() => inject({ type: 'nodeDown', node }, t('node.wentDown', { node }))}>{t('node.down')}</button>
        <button type="button" onClick={() => inject({ type: 'nodeUp', node }, t('node.cameUp', { node }))}>{t('node.up')}</button>
      </fieldset>
      <fieldset>
        <legend>{t('watches.legend')}</legend>
        <button type="button" onClick={() => inject({ type: 'compactEtcd' }, t('watches.compacted'))}>{t('watches.compact')}</button>
        <button type="button" title={t('watches.breakHint')}
          onClick={() => inject({ type: 'breakEtcdWatches' }, t('watches.broke'))}>{t('watches.break')}</button>
        <button type="button" onClick={() => inject({ type: 'dropWatches', component }, t('watches.droppedOf', { component }))}>{t('watches.dropOf', { component })}</button>
        <button type="button" onClick={() => inject({ type: 'dropWatches' }, t('watches.droppedAll'))}>{t('watches.dropAll')}</button>
      </fieldset>
      <fieldset>
        <legend>{t('latency.legend')}</legend>
        <select aria-label={t('latency.link')} value={chosenLink} onChange={(e) => setLink(e.target.value)}>
          {links.map((l) => <option key={l} value={l}>{l.replace('|', ' ↔ ')}</option>)}
        </select>
        <input aria-label={t('latency.ms')} type="number" min="0" value={latency} onChange={(e) => setLatency(e.target.value)} />
        <button type="button" onClick={() => {
          const [a, b] = chosenLink.split('|');
          if (a && b && Number(latency) >= 0) inject({ type: 'linkLatency', a, b, latency: Number(latency) }, t('latency.set', { a, b, latency }));
        }}>{t('latency.apply')}</button>
      </fieldset>
      <fieldset>
        <legend>{t('images.legend')}</legend>
        <input aria-label={t('images.image')} value={image} onChange={(e) => setImage(e.target.value)} />
        <button type="button" onClick={() => inject({ type: 'imageUnpullable', image }, t('images.madeUnpullable', { image }))}>{t('images.unpullable')}</button>
        <input aria-label={t('images.after')} type="number" min="0" value={after} onChange={(e) => setAfter(e.target.value)} />
        <input aria-label={t('images.exitCode')} type="number" value={exitCode} onChange={(e) => setExitCode(e.target.value)} />
        <button type="button" onClick={() => inject({ type: 'imageCrashes', image, afterSeconds: Number(after), exitCode: Number(exitCode) }, t('images.madeCrash', { image }))}>{t('images.crash')}</button>
      </fieldset>
      {last && <p className="muted" data-testid="fault-note" aria-live="polite">{t('injected', { fault: last })}</p>}
    </div>
  );
}
