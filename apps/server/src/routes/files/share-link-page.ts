import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStoaError } from '@stoa/contract';

type Reason = 'unknown' | 'expired' | 'revoked' | 'gone';
type Lang = 'en' | 'ru' | 'zh';

const WORDS: Record<Lang, { title: string } & Record<Reason, string>> = {
  en: {
    title: 'This link does not open',
    expired: 'This share link has expired. Ask the person who sent it for a new one.',
    revoked: 'This share link was revoked by the people who shared the file. Ask them for a new one if you still need it.',
    gone: 'The file of this share link is no longer shared.',
    unknown: 'There is no share link at this address. Check that it was copied whole.',
  },
  ru: {
    title: 'Ссылка не открывается',
    expired: 'Срок действия этой ссылки истёк. Попросите того, кто её прислал, сделать новую.',
    revoked: 'Эту ссылку отозвали те, кто поделился файлом. Если файл всё ещё нужен, попросите новую.',
    gone: 'Файл по этой ссылке больше не доступен.',
    unknown: 'По этому адресу нет ссылки. Проверьте, что она скопирована целиком.',
  },
  zh: {
    title: '此链接无法打开',
    expired: '此分享链接已过期。请向发送者索取新的链接。',
    revoked: '分享此文件的人已撤销该链接。如仍需要，请向他们索取新的链接。',
    gone: '此分享链接的文件已不再共享。',
    unknown: '此地址没有分享链接。请检查链接是否复制完整。',
  },
};

function langOf(req: FastifyRequest): Lang {
  const accepted = String(req.headers['accept-language'] ?? '').toLowerCase();
  for (const part of accepted.split(',')) {
    const tag = part.trim().slice(0, 2);
    if (tag === 'en' || tag === 'ru' || tag === 'zh') return tag;
  }
  return 'en';
}

/**
 * The page a refused share link answers with: a person who clicks an expired or revoked link in a mail sees a
 * sentence in their language, not JSON. The status stays that of the API (401, 404), so scripts can tell.
 */
export function sendShareRefusal(reply: FastifyReply, req: FastifyRequest, e: unknown): FastifyReply | null {
  if (!isStoaError(e) || (e.code !== 'unauthorized' && e.code !== 'not_found')) return null;
  const given = e.details?.reason;
  const reason: Reason = given === 'expired' || given === 'revoked' || given === 'gone' ? given : 'unknown';
  const lang = langOf(req);
  const w = WORDS[lang];
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${w.title}</title><style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;line-height:1.5;color:#1d2330;background:#f6f7f9}@media (prefers-color-scheme:dark){body{color:#e3e7ee;background:#12161d}}</style></head><body><main><h1>${w.title}</h1><p data-reason="${reason}">${w[reason]}</p></main></body></html>`;
  return reply
    .code(e.status)
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    .header('X-Content-Type-Options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(html);
}
