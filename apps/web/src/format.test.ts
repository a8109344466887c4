import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate } from './format.js';
import { localeOf, type Lang } from './i18n/lang.js';

// Intl puts a narrow or plain no-break space before AM/PM depending on its ICU version; a reader sees a space.
const spaced = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('formatDate', () => {
  it.each(['en', 'ru', 'zh'] as Lang[])('writes %s dates as the browser’s medium date and short time do', (lang) => {
    const intl = new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'short' });
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        expect(formatDate(d.toISOString(), lang)).toBe(spaced(intl.format(d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps midnight and noon apart in English', () => {
    const at = (h: number) => formatDate(new Date(2026, 0, 2, h, 5).toISOString(), 'en');
    expect([at(0), at(12), at(23)]).toEqual(['Jan 2, 2026, 12:05 AM', 'Jan 2, 2026, 12:05 PM', 'Jan 2, 2026, 11:05 PM']);
  });

  it('shows text that is not a date as it is', () => {
    expect(formatDate('yesterday', 'ru')).toBe('yesterday');
  });
});
