// Puts the panes back to their default sizes and forgets the remembered ones.

import { useTranslation } from 'react-i18next';
import { useDock } from './dock-store.ts';
import { forgetLayout } from './Workspace.tsx';

export function ResetLayoutButton() {
  const { t } = useTranslation('layout');
  const resetLayout = useDock((dock) => dock.resetLayout);
  return (
    <button type="button" className="header-button" title={t('resetLayoutHint')} onClick={() => { forgetLayout(); resetLayout(); }}>
      {t('resetLayout')}
    </button>
  );
}
