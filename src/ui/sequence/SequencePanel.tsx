// The dock's Sequence tab: the sequence diagram, loaded on first use (React.lazy), so it adds nothing to
// the page's first JavaScript.

import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

const SequenceView = lazy(() => import('./SequenceView.tsx'));

export function SequencePanel() {
  const { t } = useTranslation('sequence');
  return (
    <Suspense fallback={<p className="muted" role="status">{t('loading')}</p>}>
      <SequenceView />
    </Suspense>
  );
}
