import rehypeHighlight from 'rehype-highlight';
import type { Options } from 'react-markdown';

/** What react-markdown takes as rehype plugins. */
export type RehypePlugins = NonNullable<Options['rehypePlugins']>;

/**
 * Past this many characters a code block stays plain: highlighting is regular-expression work on the reader's
 * machine, and a page must not be able to freeze the tab of whoever opens it.
 */
export const MAX_HIGHLIGHTED_CHARS = 20_000;

/** The few hast shapes the size check touches (the tree itself comes from remark-rehype). */
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

function textLength(node: HastNode): number {
  return node.type === 'text' ? (node.value?.length ?? 0) : (node.children ?? []).reduce((n, c) => n + textLength(c), 0);
}

/** rehype step: marks `<pre><code>` blocks longer than MAX_HIGHLIGHTED_CHARS `no-highlight`, which the highlighter honours. */
function rehypeSkipLongCode() {
  const visit = (node: HastNode, parent: HastNode | null): void => {
    if (node.tagName === 'code' && parent?.tagName === 'pre' && textLength(node) > MAX_HIGHLIGHTED_CHARS) {
      const props = (node.properties ??= {});
      props.className = [...(Array.isArray(props.className) ? props.className : []), 'no-highlight'];
      return;
    }
    for (const child of node.children ?? []) visit(child, node);
  };
  return (tree: HastNode) => visit(tree, null);
}

/**
 * Colours fenced code blocks that name their language (```ts, ```python …) with highlight.js's grammars through
 * rehype-highlight; blocks without a language are left as they are (no guessing: a wrong guess reads worse than
 * plain text). Output is spans with `hljs-*` classes, so nothing in a page can run.
 */
export const codeHighlighting: RehypePlugins = [rehypeSkipLongCode, [rehypeHighlight, { detect: false }]];
