// One line under the playback bar saying whether the open cluster is saved, what went wrong with storage
// (each fault has its own message from the worker), how far a long replay or restore has got, and, when
// the simulation worker crashed, a button to restart it from the last saved step.

import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PersistenceWarning } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import './clusters.css';

/** The step saved, grouped as `toLocaleString('en-US')` groups it: one formatter, not one made per save while playing. */
const stepFormat = new Intl.NumberFormat('en-US');

/**
 * A storage warning in the page's language: in English the worker's own sentence, which carries the browser's
 * details; in 中文 the translation of what its code means (`clusters:warning.*`, whose English originals say
 * the same in general).
 */
function warningText(t: TFunction<'clusters'>, language: string, warning: PersistenceWarning): string {
  if (language.startsWith('en')) return warning.message;
  return t(`warning.${warning.code}`, { name: warning.cluster ?? '' });
}

/** The warning on hover, whole (the line may be cut short): in 中文 the translation, then the worker's sentence. */
function warningTitle(t: TFunction<'clusters'>, language: string, warning: PersistenceWarning): string {
  const text = warningText(t, language, warning);
  return text === warning.message ? text : `${text}\n${warning.message}`;
}

export function StorageStatus() {
  const { t, i18n } = useTranslation('clusters');
  const persistence = useSim((state) => state.persistence);
  const progress = useSim((state) => state.progress);
  const crashed = useSim((state) => state.workerCrashed);
  const actions = useSimActions();
  if (crashed !== null) {
    return (
      <div className="storage-status" role="alert" data-crashed="true" data-testid="worker-crashed">
        <span title={t('crashed', { reason: crashed })}>{t('crashed', { reason: crashed })}</span>
        <button type="button" onClick={() => actions.restartWorker()}>{t('restart')}</button>
      </div>
    );
  }
  if (!persistence && !progress) return null;
  const mode = persistence?.mode ?? 'saving';
  const progressLabel = progress
    ? t(`progress.${progress.words.key}`, { steps: stepFormat.format(progress.words.steps), at: progress.words.key === 'fork' ? progress.words.at : 0 })
    : '';
  return (
    <div className="storage-status" data-mode={mode} data-testid="storage-status" role={persistence?.warning ? 'alert' : 'status'}>
      {progress && (
        <label>
          {progressLabel}{' '}
          <progress max={progress.total || 1} value={progress.done} aria-label={progressLabel} />
        </label>
      )}
      {persistence?.warning ? (
        <span data-testid="storage-warning" data-code={persistence.warning.code} title={warningTitle(t, i18n.language, persistence.warning)}>{warningText(t, i18n.language, persistence.warning)}</span>
      ) : persistence?.lastPersistedStep !== null && persistence?.lastPersistedStep !== undefined ? (
        <span data-testid="saved-step">{t('savedAt', { step: stepFormat.format(persistence.lastPersistedStep) })}</span>
      ) : null}
    </div>
  );
}
