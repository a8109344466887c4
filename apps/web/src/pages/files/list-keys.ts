import { useEffect, useRef } from 'react';
import { typingIn } from '../../keys.js';

/** The rows of the file list in the page (the list draws only those near the screen; focus brings in more). */
const ROWS = 'table.files tbody tr[data-path], table.files tbody tr[data-folder]';

/** The row's main control: a file's name (opens its preview) or a folder's (opens it). */
const mainButton = (row: Element) => row.querySelector<HTMLElement>('button.file-name, td > button.link');

/**
 * The file list's keys (issue 31), kept apart from how the list loads its rows: `/` goes to the name search,
 * Up and Down move the selection (the focused row) through the rows, Enter opens it, F2 and Delete press the
 * row's own Rename and Delete buttons (so whatever those open — a dialog, a confirmation — opens), Esc clears
 * the search and the ticks. Keys typed in a field stay the field's (Esc in the search clears it), and nothing
 * fires while a dialog is open.
 *
 * @example
 * useFileListKeys({ renameLabel: t('files.rename'), onClear: () => { setQuery(''); clearChecked(); } });
 */
export function useFileListKeys(opts: { renameLabel: string; onClear: () => void }): void {
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('[role="dialog"]')) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (typingIn(target)) {
        if (e.key === 'Escape' && target?.matches('input.file-search')) latest.current.onClear();
        return;
      }
      const rows = [...document.querySelectorAll<HTMLTableRowElement>(ROWS)];
      const row = target?.closest<HTMLTableRowElement>('table.files tbody tr') ?? null;
      // Other lists (the folder tree) keep their own arrows: the list's keys start in it or from nowhere.
      const fromNowhere = !target || target === document.body;
      if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('input.file-search');
        if (!search) return;
        e.preventDefault();
        search.focus();
        search.select();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (rows.length === 0 || (!row && !fromNowhere)) return;
        const at = row ? rows.indexOf(row) : -1;
        const next = at < 0 ? (e.key === 'ArrowDown' ? rows[0] : rows[rows.length - 1]) : rows[at + (e.key === 'ArrowDown' ? 1 : -1)];
        if (!next) return;
        e.preventDefault();
        mainButton(next)?.focus();
      } else if (e.key === 'Enter' && row && target && !target.matches('button, a, input')) {
        e.preventDefault();
        mainButton(row)?.click();
      } else if ((e.key === 'F2' || e.key === 'Delete') && row?.dataset.path) {
        const label = latest.current.renameLabel;
        const buttons = [...row.querySelectorAll<HTMLButtonElement>('td.actions button')];
        const button =
          e.key === 'F2'
            ? buttons.find((b) => b.title === label || b.getAttribute('aria-label')?.startsWith(label))
            : buttons.find((b) => b.classList.contains('danger'));
        if (!button || button.disabled) return;
        e.preventDefault();
        button.click();
      } else if (e.key === 'Escape' && !document.querySelector('aside.preview')) {
        latest.current.onClear();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
