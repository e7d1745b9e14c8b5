// Errors the worker reported (a command it could not carry out, a model failure while playing).

import { useTranslation } from 'react-i18next';
import { useSim, useSimActions } from '../store/sim-context.ts';

export function Notices() {
  const { t } = useTranslation('notices');
  const notices = useSim((state) => state.notices);
  const actions = useSimActions();
  if (notices.length === 0) return null;
  return (
    <ul className="notices" role="alert" data-testid="notices">
      {notices.map((notice) => (
        <li key={notice.id}>
          <span>{notice.command ? `${notice.command}: ` : ''}{notice.message}</span>
          <button type="button" className="link-button" onClick={() => actions.dismissNotice(notice.id)} aria-label={t('dismissLabel', { message: notice.message })}>
            {t('dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}
