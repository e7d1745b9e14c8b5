// "Why this version?": the cause chain of the delivery that wrote a key's live version (the etcd Txn),
// back to the user's action. Shown only while the UI still holds that delivery.

import { useTranslation } from 'react-i18next';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { writerOf } from './why.ts';

export function WhyWrittenButton({ keyName }: { readonly keyName: string }) {
  const { t } = useTranslation('inspector');
  const actions = useSimActions();
  const writer = useSim((state) => (state.keyspace.past ? undefined : writerOf(state, keyName)));
  if (!writer) return null;
  return (
    <button type="button" onClick={() => {
      actions.select({ type: 'message', id: writer.id });
      actions.askWhy(writer.id);
    }}>
      {t('whyVersion', { step: writer.step })}
    </button>
  );
}
