// What the user can send. Offered only for what the topology says is modelled and linked to the user:
// today etcdctl put straight to etcd; kubectl joins when kube-apiserver is modelled.

import { useState, type FormEvent } from 'react';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { etcdctlTarget } from './traffic.ts';

export function TrafficActions() {
  const etcd = useSim((state) => etcdctlTarget(state.cluster?.topology));
  return (
    <section className="panel-section" aria-labelledby="traffic-heading">
      <h2 id="traffic-heading">Send</h2>
      {etcd ? <EtcdctlPut etcd={etcd} /> : (
        <p className="hint">Nothing answers requests yet: the components marked “not modelled yet” are drawn but silent.</p>
      )}
    </section>
  );
}

function EtcdctlPut({ etcd }: { readonly etcd: string }) {
  const actions = useSimActions();
  const [key, setKey] = useState('/podflow/greeting');
  const [value, setValue] = useState('hello');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    actions.userRequest(etcd, 'etcd.Put', { key, value });
  };
  return (
    <form className="etcdctl" aria-label="etcdctl put" onSubmit={onSubmit}>
      <code className="command">etcdctl put</code>
      <label>
        Key
        <input value={key} onChange={(event) => setKey(event.target.value)} required spellCheck={false} />
      </label>
      <label>
        Value
        <input value={value} onChange={(event) => setValue(event.target.value)} spellCheck={false} />
      </label>
      <button type="submit">Send put</button>
    </form>
  );
}
