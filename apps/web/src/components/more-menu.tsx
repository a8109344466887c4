import { useEffect, useRef, useState } from 'react';

interface MenuAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

/**
 * A "…" button that opens a menu of actions (WAI-ARIA menu button): Enter, Space or a click opens it with focus
 * on the first item; arrow keys move, Escape or a click elsewhere closes it and gives focus back to the button.
 *
 * @example
 * <MoreMenu label={t('wiki.more')} disabled={!canEdit} actions={[{ label: t('wiki.rename'), onSelect: rename }]} />
 */
export function MoreMenu(props: { label: string; disabled?: boolean; actions: MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const outside = (e: MouseEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);
  const onKey = (e: React.KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
    } else if (e.key === 'Tab') close(false);
  };
  return (
    <span className="more-menu">
      <button
        ref={button}
        type="button"
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={props.disabled}
        onClick={() => setOpen((o) => !o)}
      >
        …
      </button>
      {open && (
        <ul ref={menu} role="menu" aria-label={props.label} onKeyDown={onKey}>
          {props.actions.map((a) => (
            <li key={a.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={a.danger ? 'danger' : undefined}
                onClick={() => {
                  close(false);
                  a.onSelect();
                }}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
