import { Children, cloneElement, isValidElement, useEffect, useState, type ReactNode } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import type { RehypePlugins } from './code-highlight.js';
import remarkGfm from 'remark-gfm';

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
    .replace(/^\/+|(?<!\/)\/+$/g, '');
}

export interface LinkRender {
  /** `aliased`: the link names its own label (`[[target|alias]]`); otherwise `label` is the target as written. */
  (path: string, label: string, heading: string | null, key: string, aliased?: boolean): ReactNode;
}

/** Shows a picture stored in the project's files (`![alt](path/in/files.png)`). */
export interface ImageRender {
  (path: string, alt: string, key: string): ReactNode;
}

/** The few mdast shapes the wiki-link step touches (the tree itself comes from remark). */
interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
  data?: { hProperties?: Record<string, string> };
}

const WIKI_LINK = /\[\[([^[\]\n]+?)\]\]/g;
const WIKI_SCHEME = 'wiki:';

/** `[[target|label]]` → the link node the renderer turns into a page link (text in code stays text). */
function wikiLinkNode(inner: string, raw: string): MdNode {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = (bar >= 0 ? inner.slice(bar + 1).trim() : '') || target.trim();
  const hash = target.indexOf('#');
  const path = slugify(hash >= 0 ? target.slice(0, hash) : target);
  const heading = hash >= 0 ? target.slice(hash + 1).trim() : '';
  if (!path) return { type: 'text', value: raw };
  return {
    type: 'link',
    url: WIKI_SCHEME + encodeURIComponent(path),
    children: [{ type: 'text', value: label }],
    data: {
      hProperties: {
        'data-wiki': path,
        ...(heading ? { 'data-heading': heading } : {}),
        ...(bar >= 0 && label !== target.trim() ? { 'data-alias': '1' } : {}),
      },
    },
  };
}

/** remark step: splits text nodes on `[[…]]` into wiki links (code and inline code are other node types, so
 *  untouched), and turns raw HTML into text. */
function remarkWikiLinks() {
  const visit = (node: MdNode): void => {
    if (!node.children || node.type === 'link') return;
    const out: MdNode[] = [];
    for (const child of node.children) {
      // Raw HTML is shown as the text it is (a block of it as a paragraph), never rendered.
      if (child.type === 'html') {
        const shown: MdNode = { type: 'text', value: child.value ?? '' };
        out.push(node.type === 'root' ? { type: 'paragraph', children: [shown] } : shown);
        continue;
      }
      if (child.type !== 'text' || !child.value?.includes('[[')) {
        visit(child);
        out.push(child);
        continue;
      }
      let last = 0;
      for (const m of child.value.matchAll(WIKI_LINK)) {
        if (m.index > last) out.push({ type: 'text', value: child.value.slice(last, m.index) });
        out.push(wikiLinkNode(m[1]!, m[0]));
        last = m.index + m[0].length;
      }
      if (last < child.value.length) out.push({ type: 'text', value: child.value.slice(last) });
    }
    node.children = out;
  };
  return (tree: MdNode) => visit(tree);
}

/** The plain text of an mdast node. */
function mdText(node: MdNode): string {
  return node.value ?? (node.children ?? []).map(mdText).join('');
}

const sameTitle = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * remark step: drops a page's first `# heading` when it only repeats the page's title (imported pages start with
 * one), so the title is not shown twice.
 */
function remarkDropTitle(title: string | undefined) {
  return () => (tree: MdNode) => {
    const first = tree.children?.[0] as (MdNode & { depth?: number }) | undefined;
    if (title && first?.type === 'heading' && first.depth === 1 && sameTitle(mdText(first), title)) tree.children = tree.children!.slice(1);
  };
}

/** Page links keep their own scheme until rendered; everything else passes react-markdown's safe-URL rule. */
function urlTransform(url: string): string {
  return url.startsWith(WIKI_SCHEME) ? url : defaultUrlTransform(url);
}

/** The text of rendered children (for heading ids). */
function textOf(children: ReactNode): string {
  return Children.toArray(children)
    .map((c) => (typeof c === 'string' || typeof c === 'number' ? String(c) : isValidElement<{ children?: ReactNode }>(c) ? textOf(c.props.children) : ''))
    .join('');
}

/** The task boxes among `children` (loose lists hold them in a paragraph), given `name` as their label. */
function labelBoxes(children: ReactNode, name: string): ReactNode {
  return Children.map(children, (c) => {
    if (!isValidElement<{ type?: string; children?: ReactNode }>(c)) return c;
    if (c.props.type === 'checkbox') return cloneElement(c, { 'aria-label': name } as object);
    if (c.type === 'p') return cloneElement(c, {}, labelBoxes(c.props.children, name));
    return c;
  });
}

/** A project file's path from an image's `src`; null for anything that is not one (absolute URLs, data:). */
function projectFilePath(src: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//')) return null;
  try {
    return decodeURIComponent(src.replace(/^(\.\/|\/)+/, '')) || null;
  } catch {
    return null;
  }
}

/** A fenced block that names its language: ```ts, ~~~python. */
const FENCE_WITH_LANGUAGE = /^ {0,3}(`{3,}|~{3,})[ \t]*[\w#+.-]+/m;

/**
 * The code-highlighting plugins, loaded only for a page that has a fenced block with a language, so pages
 * without code never download the grammars.
 */
function useCodeHighlighting(text: string, given: RehypePlugins | undefined): RehypePlugins {
  const wanted = given === undefined && FENCE_WITH_LANGUAGE.test(text);
  const [loaded, setLoaded] = useState<RehypePlugins | null>(null);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    void import('./code-highlight.js').then(
      (m) => live && setLoaded(m.codeHighlighting),
      // Without the grammars (a chunk that failed to load) the code is still shown, plain.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return given ?? (wanted && loaded ? loaded : []);
}

/**
 * Renders a wiki page's markdown (GitHub flavour: tables, task lists, strikethrough, autolinks) through
 * react-markdown, as React elements — never an HTML string — so raw HTML in a page is shown as text and nothing
 * in a page can run. `[[path]]`, `[[path|label]]` and `[[path#heading]]` become page links through `link`;
 * links to other sites open in a new tab; only safe URL schemes are linked; pictures come from the project's
 * files through `image` (pictures from other sites are not fetched: a page cannot make its readers call out).
 * `# Title` renders one level down (h2), the page's own title being the h1. Fenced code that names its language is
 * coloured once the grammars have loaded (`highlight` gives them at once, for rendering without effects).
 *
 * @example
 * <Markdown text={'See [[handbook/refunds]].'} link={(p, label, _h, key) => <a key={key} href={`/wiki/${p}`}>{label}</a>} />
 */
export function Markdown({
  text,
  link,
  image,
  highlight,
  title,
}: {
  text: string;
  link: LinkRender;
  image?: ImageRender;
  highlight?: RehypePlugins;
  /** The page's title, shown above as its h1: a first `# heading` equal to it is not shown again. */
  title?: string;
}) {
  const rehypePlugins = useCodeHighlighting(text, highlight);
  let n = 0;
  const key = () => `md${n++}`;
  const heading =
    (level: number) =>
    ({ children }: { children?: ReactNode }) => {
      const Tag = `h${Math.min(level + 1, 6)}` as 'h2';
      return <Tag id={slugify(textOf(children))}>{children}</Tag>;
    };
  const components: Components = {
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
    a: ({ href, children, node: _node, ...rest }) => {
      const props = rest as Record<string, string | undefined>;
      const wiki = props['data-wiki'];
      if (wiki) return <>{link(wiki, textOf(children), props['data-heading'] ?? null, key(), props['data-alias'] === '1')}</>;
      if (!href) return <>{children}</>;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    },
    img: ({ src, alt }) => {
      const path = typeof src === 'string' ? projectFilePath(src) : null;
      if (path && image) return <>{image(path, alt ?? '', key())}</>;
      return <span className="md-image-skipped">{alt || ''}</span>;
    },
    // A task's box is named by the task's text (its nested lists aside), as a screen reader should read it.
    input: ({ type, checked, ...rest }) =>
      type === 'checkbox' ? (
        <input type="checkbox" checked={!!checked} disabled readOnly aria-label={(rest as { 'aria-label'?: string })['aria-label']} />
      ) : null,
    li: ({ children, node: _node, ...rest }) => {
      const props = rest as { className?: string };
      if (!props.className?.includes('task-list-item')) return <li className={props.className}>{children}</li>;
      const own = Children.toArray(children).filter((c) => !(isValidElement(c) && (c.type === 'ul' || c.type === 'ol')));
      const name = textOf(own).trim();
      return <li className={props.className}>{labelBoxes(children, name)}</li>;
    },
    // Wide tables and long code lines scroll sideways (on a phone most do): focusable, so arrow keys scroll them.
    table: ({ children }) => (
      <div className="md-table" tabIndex={0}>
        <table>{children}</table>
      </div>
    ),
    pre: ({ children, node: _node, ...rest }) => (
      <pre {...(rest as object)} tabIndex={0}>
        {children}
      </pre>
    ),
  };
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkWikiLinks, remarkDropTitle(title)]}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={urlTransform}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
