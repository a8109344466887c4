/**
 * Whether a key press is meant for a text field (an input, a textarea, a select, editable text): the page's
 * shortcuts leave those alone, but for the few that work everywhere (Ctrl/Cmd+S, Ctrl/Cmd+K, Esc).
 *
 * @example
 * if (typingIn(e.target)) return;
 */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(target.type);
}

/** Ctrl on Windows and Linux, Cmd on a Mac: one key, with no other modifier than it. */
export const withCommandKey = (e: KeyboardEvent, key: string) => (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === key;
