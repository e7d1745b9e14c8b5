// Faults as controls: each button injects one fault of src/sim/faults.ts as a user action (a message of
// the user component, logged on the timeline like any command), so what it sets off animates and steps:
// Pending pods with the scheduler stopped, 410 and relists after a compaction and a broken etcd watch stream, NotReady nodes and evictions,
// ImagePullBackOff, CrashLoopBackOff.

import { useState } from 'react';
import type { FaultSpec } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';

export function FaultsPanel() {
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
  const inject = (fault: FaultSpec, label: string) => {
    actions.injectFault(fault);
    setLast(label);
  };
  const chosenLink = link || links[0] || '';
  return (
    <div className="faults-panel">
      <fieldset>
        <legend>Component process</legend>
        <select aria-label="Component" value={component} onChange={(e) => setComponent(e.target.value)}>
          {components.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
        <button type="button" onClick={() => inject({ type: 'stop', component }, `stopped ${component}`)}>Stop</button>
        <button type="button" onClick={() => inject({ type: 'start', component }, `started ${component}`)}>Start</button>
      </fieldset>
      <fieldset>
        <legend>Node</legend>
        <select aria-label="Node" value={node} onChange={(e) => setNode(e.target.value)}>
          {nodes.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
        <button type="button" onClick={() => inject({ type: 'nodeDown', node }, `${node} down`)}>Node down</button>
        <button type="button" onClick={() => inject({ type: 'nodeUp', node }, `${node} up`)}>Node up</button>
      </fieldset>
      <fieldset>
        <legend>etcd and watches</legend>
        <button type="button" onClick={() => inject({ type: 'compactEtcd' }, 'compacted etcd')}>Compact etcd now</button>
        <button type="button" title="After a compaction, the watch cache gets 410 and relists; its clients relist too"
          onClick={() => inject({ type: 'breakEtcdWatches' }, "broke kube-apiserver's etcd watch stream")}>Break kube-apiserver's etcd watch stream</button>
        <button type="button" onClick={() => inject({ type: 'dropWatches', component }, `dropped ${component}'s watches`)}>Drop watches of {component}</button>
        <button type="button" onClick={() => inject({ type: 'dropWatches' }, 'dropped every watch')}>Drop all watches</button>
      </fieldset>
      <fieldset>
        <legend>Link latency</legend>
        <select aria-label="Link" value={chosenLink} onChange={(e) => setLink(e.target.value)}>
          {links.map((l) => <option key={l} value={l}>{l.replace('|', ' ↔ ')}</option>)}
        </select>
        <input aria-label="Latency (ms)" type="number" min="0" value={latency} onChange={(e) => setLatency(e.target.value)} />
        <button type="button" onClick={() => {
          const [a, b] = chosenLink.split('|');
          if (a && b && Number(latency) >= 0) inject({ type: 'linkLatency', a, b, latency: Number(latency) }, `${a} ↔ ${b}: ${latency} ms`);
        }}>Set latency</button>
      </fieldset>
      <fieldset>
        <legend>Images</legend>
        <input aria-label="Image" value={image} onChange={(e) => setImage(e.target.value)} />
        <button type="button" onClick={() => inject({ type: 'imageUnpullable', image }, `${image} unpullable`)}>Make unpullable</button>
        <input aria-label="Crash after (s)" type="number" min="0" value={after} onChange={(e) => setAfter(e.target.value)} />
        <input aria-label="Exit code" type="number" value={exitCode} onChange={(e) => setExitCode(e.target.value)} />
        <button type="button" onClick={() => inject({ type: 'imageCrashes', image, afterSeconds: Number(after), exitCode: Number(exitCode) }, `${image} crashes`)}>Make it crash</button>
      </fieldset>
      {last && <p className="muted" data-testid="fault-note" aria-live="polite">Injected: {last} (takes effect when delivered)</p>}
    </div>
  );
}
