// What the user can send. Offered only for what the topology says is modelled and linked to the user:
// `kubectl create -f` to kube-apiserver, and etcdctl put straight to etcd.

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { manifestPresets } from './presets.ts';
import { etcdctlTarget, kubectlTarget } from './traffic.ts';

export function TrafficActions() {
  const { t } = useTranslation('traffic');
  const etcd = useSim((state) => etcdctlTarget(state.cluster?.topology));
  const apiserver = useSim((state) => kubectlTarget(state.cluster?.topology));
  return (
    <section className="panel-section" aria-labelledby="traffic-heading">
      <h2 id="traffic-heading">{t('heading')}</h2>
      {apiserver ? <KubectlCreate /> : null}
      {etcd ? <EtcdctlPut etcd={etcd} /> : null}
      {!etcd && !apiserver ? (
        <p className="hint">{t('nothingAnswers')}</p>
      ) : null}
    </section>
  );
}

function KubectlCreate() {
  const { t } = useTranslation('traffic');
  const actions = useSimActions();
  const [yaml, setYaml] = useState(manifestPresets[0]!.yaml);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    actions.applyManifest(yaml);
  };
  return (
    <form className="kubectl-create" aria-label="kubectl create" onSubmit={onSubmit}>
      <code className="command">kubectl create -f -</code>
      {/* Preset and Create share one row so the action stays in view when the column is short (1280×720). */}
      <div className="kubectl-create-row">
        <label>
          {t('preset')}
          <select aria-label={t('preset')} onChange={(event) => setYaml(manifestPresets.find((p) => p.id === event.target.value)?.yaml ?? yaml)}>
            {manifestPresets.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
          </select>
        </label>
        <button type="submit">{t('create')}</button>
      </div>
      <label>
        {t('manifest')}
        <textarea value={yaml} onChange={(event) => setYaml(event.target.value)} rows={8} spellCheck={false} />
      </label>
    </form>
  );
}

function EtcdctlPut({ etcd }: { readonly etcd: string }) {
  const { t } = useTranslation('traffic');
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
        {t('key')}
        <input value={key} onChange={(event) => setKey(event.target.value)} required spellCheck={false} />
      </label>
      <label>
        {t('value')}
        <input value={value} onChange={(event) => setValue(event.target.value)} spellCheck={false} />
      </label>
      <button type="submit">{t('sendPut')}</button>
    </form>
  );
}
