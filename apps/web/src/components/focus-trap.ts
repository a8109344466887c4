import { useLayoutEffect, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps keyboard focus inside a modal dialog while it is open (Tab and Shift+Tab wrap around; Escape calls
 * `onEscape`) and gives focus back to what had it before the dialog opened, so a keyboard user carries on where
 * they were (WAI-ARIA dialog pattern). Layout effects: the focus moves and the keys are caught as the dialog
 * renders, not after the next paint (when Preact runs plain effects), so a key pressed at once lands inside.
 *
 * @example
 * const ref = useRef<HTMLDivElement>(null);
 * useFocusTrap(ref, onCancel);
 * return <div ref={ref} role="dialog" aria-modal="true">…</div>;
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape?: () => void): void {
  useLayoutEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = ref.current;
    if (box && !box.contains(document.activeElement)) (box.querySelector<HTMLElement>(FOCUSABLE) ?? box).focus();
    return () => {
      // Back to the control that opened the dialog, if it is still there (a deleted row's button is not).
      if (before?.isConnected) before.focus();
    };
  }, []);
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const box = ref.current;
      if (!box) return;
      if (e.key === 'Escape' && onEscape) {
        e.preventDefault();
        onEscape();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
      if (!items.length) return e.preventDefault();
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = box.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [ref, onEscape]);
}

/**
 * A ref that focuses its element once, when it is mounted: what React's `autoFocus` did, which Preact only writes
 * as the attribute (and the browser honours that one only on the page's first load). One function for every
 * element, so that no re-render calls it again.
 *
 * @example
 * <input ref={focusOnMount} value={name} onChange={…} />
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
