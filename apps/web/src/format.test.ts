import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorText, formatDate } from './format.js';
import { localeOf, type Lang } from './i18n/lang.js';
import { translate } from './i18n/index.js';
import type { MessageKey } from './i18n/en.js';
import { ApiError } from './api/client.js';

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

describe('errorText', () => {
  const t = (lang: Lang) => (key: MessageKey, vars?: Record<string, string | number>) => translate(lang, key, vars);
  it('says the reason in the UI language with the API’s detail: which segment of a path, in words (issue 29)', () => {
    const e = new ApiError('path_invalid', 400, 'segment ".." is not allowed', { rule: 'dot_segment', segment: '..', title: 'Invalid path' });
    expect(errorText(e, t('ru'))).toBe('Недопустимый путь: сегмент «..» не допускается');
    expect(errorText(e, t('en'))).toBe('The path is not valid: the segment ".." is not allowed');
    const long = new ApiError('path_invalid', 400, 'path longer than 512 characters', { rule: 'too_long', limit: 512 });
    expect(errorText(long, t('zh'))).toBe('路径无效：路径超过 512 个字符'.replace('：', ': '));
  });
  it('gives the server’s words where it names no rule, and the reason alone for network and server faults', () => {
    expect(errorText(new ApiError('bad_request', 400, 'metadata must be a JSON object of strings', { title: 'Bad request' }), t('en'))).toBe(
      'The request is not valid: metadata must be a JSON object of strings',
    );
    expect(errorText(new ApiError('unavailable', 503, 'the database is restarting'), t('en'))).toBe(t('en')('error.unavailable'));
    expect(errorText(new ApiError('network', 0, 'Failed to fetch'), t('en'))).not.toContain('Failed to fetch');
  });
});

describe('errorText in another language', () => {
  it('never mixes the server’s English words into a Russian or Chinese UI', () => {
    const e = new ApiError('quota_exceeded', 413, 'not enough storage space: 2000 bytes needed, 1000 free', { title: 'Quota exceeded' });
    for (const lang of ['ru', 'zh'] as const) expect(errorText(e, (k, v) => translate(lang, k, v))).toBe(translate(lang, 'error.quota_exceeded'));
  });
});
