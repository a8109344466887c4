// 'react' and 'react-dom/server' are Preact's here, as in the built UI (apps/web/preact-aliases.ts): its serialiser
// escapes only the `<` and `&` of text, writes boolean attributes bare and ends a style with `;`.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, slugify, type ImageRender, type LinkRender } from './markdown.js';
import { codeHighlighting, MAX_HIGHLIGHTED_CHARS } from './code-highlight.js';

const link: LinkRender = (path, label, heading, key) => createElement('a', { key, href: `/wiki/${path}`, 'data-heading': heading ?? undefined }, label);
const image: ImageRender = (path, alt, key) => createElement('img', { key, 'data-file': path, alt });
// Line breaks between elements are not what a reader sees.
const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text, link, image })).replace(/\n/g, '');

describe('wiki markdown renderer', () => {
  it('shows raw HTML as text: nothing of a page can run', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>');
    expect(out).toContain('<p>&lt;script>alert(1)&lt;/script></p>');
    expect(out).not.toMatch(/<script|<img/);
  });

  it('turns [[links]] into page links, with labels and headings, folded like page paths', () => {
    const out = html('See [[Handbook/Refunds|the rules]], [[faq#Billing]] and [[New Page]].');
    expect(out).toContain('<a href="/wiki/handbook/refunds">the rules</a>');
    expect(out).toContain('<a href="/wiki/faq" data-heading="Billing">faq#Billing</a>');
    expect(out).toContain('<a href="/wiki/new-page">New Page</a>');
  });

  it('renders headings, emphasis, lists, quotes and code; [[x]] in code is not a link', () => {
    const out = html('# Title\n\nSome **bold** and *em* and `[[code]]`.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```\n[[not-a-link]] <b>\n```');
    expect(out).toContain('<h2 id="title">Title</h2>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>em</em>');
    expect(out).toContain('<code>[[code]]</code>');
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<ol><li>first</li></ol>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(out).toContain('<pre tabindex="0"><code>[[not-a-link]] &lt;b></code></pre>');
  });

  it('colours fenced code that names its language; code without one, unknown languages and huge blocks stay plain', () => {
    const coloured = (text: string) => renderToStaticMarkup(createElement(Markdown, { text, link, image, highlight: codeHighlighting })).replace(/\n/g, '');
    const ts = coloured('```ts\nconst days: number = 5; // window\n```');
    expect(ts).toContain('<code class="hljs language-ts">');
    expect(ts).toContain('<span class="hljs-keyword">const</span>');
    expect(ts).toContain('<span class="hljs-comment">// window</span>');
    expect(coloured('```\nconst days = 5;\n```')).toContain('<pre tabindex="0"><code>const days = 5;</code></pre>');
    expect(coloured('```klingon\n<b>qapla</b>\n```')).toContain('language-klingon">&lt;b>qapla&lt;/b></code>');
    const huge = coloured('```js\n' + 'let x = 1;\n'.repeat(MAX_HIGHLIGHTED_CHARS / 10) + '```');
    expect(huge).not.toContain('hljs-keyword');
    expect(huge).toContain('let x = 1;');
    // Without the grammars given, the first render is plain (they load later, in the browser).
    expect(html('```ts\nconst a = 1;\n```')).toContain('<code class="language-ts">const a = 1;</code>');
  });

  it('renders GitHub tables, task lists and strikethrough', () => {
    const out = html('| Plan | Price |\n| --- | ---: |\n| Team | **10** |\n\n- [x] done\n- [ ] to do\n\n~~old~~');
    expect(out).toContain('<div tabindex="0" class="md-table"><table><thead><tr><th>Plan</th><th style="text-align:right;">Price</th></tr></thead>');
    expect(out).toContain('<td>Team</td><td style="text-align:right;"><strong>10</strong></td>');
    expect(out).toMatch(/<li class="task-list-item"><input type="checkbox" checked disabled readonly aria-label="done"\/> done<\/li>/);
    expect(out).toMatch(/<input type="checkbox" disabled readonly aria-label="to do"\/> to do/);
    expect(out).toContain('<del>old</del>');
  });

  it("shows pictures from the project's files, and never fetches one from another site", () => {
    const out = html('![Diagram](/docs/flow%20chart.png) ![tracker](https://evil.example/pixel.gif) ![x](data:image/png;base64,AAAA)');
    expect(out).toContain('<img data-file="docs/flow chart.png" alt="Diagram"/>');
    expect(out).not.toContain('evil.example');
    expect(out).not.toContain('data:image');
    expect(out).toContain('<span class="md-image-skipped">tracker</span>');
  });

  it('links only safe URL schemes', () => {
    expect(html('[site](https://example.com)')).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    for (const bad of ['[x](javascript:alert(1))', '[x](javascript:alert)', '[x](data:text/html,hi)']) expect(html(bad)).not.toContain('href');
  });

  it('folds link targets like the server folds page paths', () => {
    expect(slugify(' Handbook/On Boarding ')).toBe('handbook/on-boarding');
    expect(slugify('Справка/数据库')).toBe('справка/数据库');
  });
});

describe('wiki markdown renderer: what a reader sees once', () => {
  it('names each task box by its task', () => {
    const out = html('- [x] signed\n- [ ] paid\n  - nested');
    expect(out).toContain('aria-label="signed"');
    expect(out).toContain('aria-label="paid"');
  });

  it('does not repeat the title as a first heading', () => {
    const render = (text: string, title: string) => renderToStaticMarkup(createElement(Markdown, { text, link, image, title }));
    expect(render('# Meeting  notes\n\nBody.', 'Meeting notes')).not.toContain('<h2');
    expect(render('# Agenda\n\nBody.', 'Meeting notes')).toContain('<h2 id="agenda">Agenda</h2>');
    expect(render('Intro.\n\n# Meeting notes', 'Meeting notes')).toContain('<h2');
  });

  it('tells the link renderer whether a link names its own label', () => {
    const seen: Array<[string, string, boolean | undefined]> = [];
    const spy: LinkRender = (path, label, _h, key, aliased) => (seen.push([path, label, aliased]), createElement('a', { key }, label));
    renderToStaticMarkup(createElement(Markdown, { text: '[[a/b]] and [[a/c|Cee]]', link: spy }));
    expect(seen).toEqual([
      ['a/b', 'a/b', false],
      ['a/c', 'Cee', true],
    ]);
  });
});
