import { useEffect } from 'react';

const fold = (s: string) => s.trim().normalize('NFC').toLowerCase().replace(/\s+/g, '-');

/**
 * Scrolls the page's heading named by the address's #fragment into view once the page is drawn: a search hit
 * (issue 31) and a `[[page#Heading]]` link both open the page at their heading. The fragment is a heading's id
 * or its text.
 *
 * @example
 * useScrollToHeading(page.path);
 */
export function useScrollToHeading(key: string): void {
  useEffect(() => {
    let wanted: string;
    try {
      wanted = decodeURIComponent(location.hash.slice(1));
    } catch {
      return;
    }
    if (!wanted) return;
    const headings = [...document.querySelectorAll<HTMLElement>('main h1, main h2, main h3, main h4, main h5, main h6')];
    const el = headings.find((h) => h.id === wanted) ?? headings.find((h) => fold(h.textContent ?? '') === fold(wanted));
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
  }, [key]);
}
