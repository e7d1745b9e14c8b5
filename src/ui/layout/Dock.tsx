// The dock: every view of the model's state and every way to act on it, one tab at a time (the ARIA tabs
// pattern: arrow keys, Home and End move between tabs). Clicking a tab opens the dock; the toggle at the
// end of the tab list closes it to the tab strip. The tabs themselves are one list (dock-tabs.tsx), drawn
// as one row that scrolls sideways when the dock is narrow.

import { Suspense, useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../console/act.css';
import { dockTabs } from './dock-tabs.tsx';
import { useDock } from './dock-store.ts';

export function Dock() {
  const { t } = useTranslation('dock');
  const stored = useDock((dock) => dock.tab);
  const open = useDock((dock) => dock.open);
  const show = useDock((dock) => dock.show);
  const setOpen = useDock((dock) => dock.setOpen);
  const tab = dockTabs.some((d) => d.id === stored) ? stored : dockTabs[0]!.id;
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  // The tab row scrolls sideways when it is wider than the dock: keep the tab on show in view, however it
  // was chosen (a click, the keyboard, a tour stop).
  const index = dockTabs.findIndex((d) => d.id === tab);
  useEffect(() => {
    const tabList = refs.current[index]?.parentElement;
    const button = refs.current[index];
    if (!tabList || !button) return;
    if (button.offsetLeft < tabList.scrollLeft) tabList.scrollLeft = button.offsetLeft;
    else if (button.offsetLeft + button.offsetWidth > tabList.scrollLeft + tabList.clientWidth) tabList.scrollLeft = button.offsetLeft + button.offsetWidth - tabList.clientWidth;
  }, [index]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = dockTabs.length - 1;
    const next = event.key === 'ArrowRight' ? (index + 1) % dockTabs.length
      : event.key === 'ArrowLeft' ? (index + last) % dockTabs.length
        : event.key === 'Home' ? 0 : event.key === 'End' ? last : null;
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    show(dockTabs[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <section className={`dock${open ? '' : ' dock--closed'}`} aria-label={t('label')} data-testid="dock" data-open={open}>
      <div className="dock-tabs">
        <div className="dock-tablist" role="tablist" aria-label={t('tablist')}>
          {dockTabs.map((d, i) => (
            <button
              key={d.id}
              ref={(el) => { refs.current[i] = el; }}
              type="button"
              role="tab"
              id={`dock-tab-${d.id}`}
              data-tab={d.id}
              aria-selected={open && tab === d.id}
              aria-controls={`dock-panel-${d.id}`}
              tabIndex={tab === d.id ? 0 : -1}
              onClick={() => show(d.id)}
              onKeyDown={(event) => onKeyDown(event, i)}
            >
              {t(d.title)}
            </button>
          ))}
        </div>
        <button type="button" className="dock-toggle" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls={`dock-panel-${tab}`}>
          {open ? t('hide') : t('show')}
        </button>
      </div>
      {dockTabs.map((d) => {
        const shown = open && tab === d.id;
        if (!shown && !d.keepMounted) return null;
        return (
          <div key={d.id} id={`dock-panel-${d.id}`} role="tabpanel" aria-labelledby={`dock-tab-${d.id}`} className="dock-panel" hidden={!shown}>
            <Suspense fallback={<p className="hint" role="status">{t('loading')}</p>}>{d.render(shown)}</Suspense>
          </div>
        );
      })}
    </section>
  );
}
