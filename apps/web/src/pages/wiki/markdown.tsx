import type { ReactNode } from 'react';

/**
 * A wiki link target folded like the server folds page paths (lower case, spaces → "-").
 *
 * @example
 * slugify('Handbook/On Boarding') // "handbook/on-boarding"
 */
export function slugify(target: string): string {
  return target
    .trim()
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/^\/+|\/+$/g, '');
}

export interface LinkRender {
  (path: string, label: string, heading: string | null, key: string): ReactNode;
}

const SAFE_URL = /^(https?:\/\/|mailto:|\/|#|\.{0,2}\/)/i;
const INLINE = /(`[^`\n]+`)|(\[\[[^[\]\n]+?\]\])|(\[[^\]\n]+\]\([^()\s]+\))|(\*\*[^*\n]+?\*\*)|(\*[^*\n]+?\*|\b_[^_\n]+?_\b)/g;

/** Inline markdown: code, [[wiki links]], [text](url) with safe schemes only, **bold**, *italic*. */
function inline(text: string, link: LinkRender, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const s = m[0];
    const key = `${keyPrefix}.${i++}`;
    if (m[1]) out.push(<code key={key}>{s.slice(1, -1)}</code>);
    else if (m[2]) {
      const inner = s.slice(2, -2);
      const bar = inner.indexOf('|');
      const target = bar >= 0 ? inner.slice(0, bar) : inner;
      const label = bar >= 0 ? inner.slice(bar + 1).trim() : '';
      const hash = target.indexOf('#');
      const path = slugify(hash >= 0 ? target.slice(0, hash) : target);
      const heading = hash >= 0 ? target.slice(hash + 1).trim() || null : null;
      out.push(path ? link(path, label || target.trim(), heading, key) : s);
    } else if (m[3]) {
      const close = s.indexOf('](');
      const label = s.slice(1, close);
      const url = s.slice(close + 2, -1);
      out.push(
        SAFE_URL.test(url) ? (
          <a key={key} href={url} target="_blank" rel="noopener noreferrer nofollow">
            {label}
          </a>
        ) : (
          s
        ),
      );
    } else if (m[4]) out.push(<strong key={key}>{inline(s.slice(2, -2), link, key)}</strong>);
    else if (m[5]) out.push(<em key={key}>{inline(s.slice(1, -1), link, key)}</em>);
    last = at + s.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * Renders markdown as React elements — never as an HTML string — so raw HTML in a page is shown as text and
 * nothing in a page can run. Supports headings, paragraphs, lists, quotes, fenced code, rules and the inline
 * forms above; `[[path]]`, `[[path|label]]` and `[[path#heading]]` become links through `link`.
 *
 * @example
 * <Markdown text={'See [[handbook/refunds]].'} link={(p, label, _h, key) => <a key={key} href={`/wiki/${p}`}>{label}</a>} />
 */
export function Markdown({ text, link }: { text: string; link: LinkRender }) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  let k = 0;
  const key = () => `b${k++}`;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      blocks.push(
        <pre key={key()}>
          <code>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1]!.length;
      const Tag = `h${Math.min(level + 1, 6)}` as 'h2';
      const kk = key();
      blocks.push(
        <Tag key={kk} id={slugify(h[2]!)}>
          {inline(h[2]!, link, kk)}
        </Tag>,
      );
      i++;
      continue;
    }
    if (/^(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      blocks.push(<hr key={key()} />);
      i++;
      continue;
    }
    const listRe = /^\s*([-*+]|\d+[.)])\s+(.*)$/;
    if (listRe.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ReactNode[] = [];
      const kk = key();
      while (i < lines.length && listRe.test(lines[i]!)) {
        items.push(<li key={`${kk}.${items.length}`}>{inline(listRe.exec(lines[i]!)![2]!, link, `${kk}.${items.length}`)}</li>);
        i++;
      }
      blocks.push(ordered ? <ol key={kk}>{items}</ol> : <ul key={kk}>{items}</ul>);
      continue;
    }
    if (line.startsWith('>')) {
      const body: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('>')) body.push(lines[i++]!.replace(/^>\s?/, ''));
      const kk = key();
      blocks.push(<blockquote key={kk}>{inline(body.join(' '), link, kk)}</blockquote>);
      continue;
    }
    const para: string[] = [];
    para.push(lines[i++]!);
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|```|~~~|>)/.test(lines[i]!) && !listRe.test(lines[i]!)) para.push(lines[i++]!);
    const kk = key();
    blocks.push(<p key={kk}>{inline(para.join('\n'), link, kk)}</p>);
  }
  return <div className="markdown">{blocks}</div>;
}
