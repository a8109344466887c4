import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/en.js';
import { typingIn, withCommandKey } from '../keys.js';
import { useFocusTrap } from './focus-trap.js';

/** Every shortcut, as the help dialog lists it. */
const LIST: Array<[string, MessageKey]> = [
  ['Ctrl+K / ⌘K', 'shortcuts.palette'],
  ['?', 'shortcuts.help'],
  ['Ctrl+S / ⌘S', 'shortcuts.save'],
  ['/', 'shortcuts.filter'],
  ['↑ ↓', 'shortcuts.move'],
  ['Enter', 'shortcuts.open'],
  ['F2', 'shortcuts.rename'],
  ['Delete', 'shortcuts.delete'],
  ['Esc', 'shortcuts.clear'],
];

/**
 * Saves what the focus is in (issue 31): the form around it (the wiki editor, a rename), else the nearest Save
 * button marked `data-save` (the memory editor); with focus on nothing, the page's one editor.
 */
function saveHere(): void {
  const el = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  const form = el?.closest('form');
  if (form) return form.requestSubmit();
  for (let n = el; n; n = n.parentElement) {
    const button = n.querySelector<HTMLButtonElement>('button[data-save]');
    if (button) return void (button.disabled || button.click());
  }
  if (el) return;
  const only = document.querySelector<HTMLButtonElement>('main button[data-save]:not([disabled])');
  if (only) return only.click();
  document.querySelector<HTMLFormElement>('main form:has(textarea)')?.requestSubmit();
}

/**
 * The keys that work on every page (issue 31): `?` lists the shortcuts in a dialog, Ctrl/Cmd+S saves the editor
 * being worked in instead of the browser saving the web page. `?` is a letter typed in a field there.
 *
 * @example
 * <Shortcuts />
 */
export function Shortcuts() {
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (withCommandKey(e, 's')) {
        e.preventDefault();
        saveHere();
        return;
      }
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target) || document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      setHelp(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return help ? <ShortcutsDialog onClose={() => setHelp(false)} /> : null;
}

function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, onClose);
  return (
    <div className="modal-back" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className="modal shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title">{t('shortcuts.title')}</h2>
        <table>
          <tbody>
            {LIST.map(([keys, what]) => (
              <tr key={what}>
                <th scope="row">
                  <kbd>{keys}</kbd>
                </th>
                <td>{t(what)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint">{t('shortcuts.typing')}</p>
        <div className="modal-actions">
          <button onClick={onClose}>{t('common.close')}</button>
        </div>
      </div>
    </div>
  );
}
