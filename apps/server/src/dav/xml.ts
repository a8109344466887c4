import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { BODY_MAX_DEPTH, StoaError } from '@stoa/contract';
import { xmlDepth } from '@stoa/core';

/**
 * WebDAV XML with fast-xml-parser: request bodies are parsed in document order with their namespace
 * declarations resolved here (the parser keeps prefixes as written), and every answer is built by the
 * library's builder, so names and values are always escaped.
 */
type XNode = Record<string, unknown> & { ':@'?: Record<string, string> };
export interface XElement {
  ns: string;
  name: string;
  children: XElement[];
  text: string;
  node: XNode;
  scope: Map<string, string>;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});
const builder = new XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', suppressEmptyNode: true });

function tagOf(node: XNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@' && k !== '#text');
}

function toElement(node: XNode, parentScope: Map<string, string>): XElement {
  const tag = tagOf(node)!;
  const scope = new Map(parentScope);
  for (const [k, v] of Object.entries(node[':@'] ?? {})) {
    if (k === 'xmlns') scope.set('', v);
    else if (k.startsWith('xmlns:')) {
      // Namespaces in XML 1.0 §3: a prefix cannot be bound to the empty name.
      if (v === '') throw new StoaError('bad_request', `XML namespace prefix "${k.slice(6)}" is bound to an empty name`);
      scope.set(k.slice(6), v);
    }
  }
  const i = tag.indexOf(':');
  const prefix = i < 0 ? '' : tag.slice(0, i);
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw new StoaError('bad_request', `XML namespace prefix "${prefix}" is not declared`);
  const kids = (node[tag] as XNode[]) ?? [];
  const children = kids.filter((k) => tagOf(k) !== undefined).map((k) => toElement(k, scope));
  const text = kids
    .filter((k) => '#text' in k)
    .map((k) => String(k['#text']))
    .join('');
  return { ns: ns ?? '', name: i < 0 ? tag : tag.slice(i + 1), children, text, node, scope };
}

/** Parses a request body; an empty body is null, malformed XML is bad_request. */
export function parseXml(body: string): XElement | null {
  if (body.trim() === '') return null;
  // WebDAV bodies nest a few levels; a deep one would recurse through the parser and toElement (issue 27).
  if (xmlDepth(body, BODY_MAX_DEPTH) > BODY_MAX_DEPTH) throw new StoaError('too_deep', `the XML body nests more than ${BODY_MAX_DEPTH} levels deep`);
  let doc: XNode[];
  try {
    doc = parser.parse(body, true) as XNode[];
  } catch {
    throw new StoaError('bad_request', 'the request body is not well-formed XML');
  }
  const root = doc.find((n) => tagOf(n) !== undefined);
  if (!root) throw new StoaError('bad_request', 'the request body has no XML element');
  return toElement(root, new Map());
}

export const DAV = 'DAV:';
export const child = (e: XElement | null | undefined, name: string, ns = DAV) => e?.children.find((c) => c.ns === ns && c.name === name);

/**
 * A property value as stored: the element's children serialised with every namespace they use declared on
 * them, so the value reads the same wherever it is written back.
 */
export function valueXml(e: XElement): string {
  const kids = (e.node[tagOf(e.node)!] as XNode[]) ?? [];
  return builder.build(kids.map((k) => declareUsed(k, e.scope))) as string;
}

function declareUsed(node: XNode, scope: Map<string, string>): XNode {
  const tag = tagOf(node);
  if (!tag) return node;
  const own = new Map(scope);
  const attrs = { ...(node[':@'] ?? {}) };
  for (const [k, v] of Object.entries(attrs))
    if (k === 'xmlns') own.set('', v);
    else if (k.startsWith('xmlns:')) own.set(k.slice(6), v);
  const i = tag.indexOf(':');
  const prefix = i < 0 ? '' : tag.slice(0, i);
  const decl = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  if (!(decl in attrs)) attrs[decl] = own.get(prefix) ?? '';
  return { [tag]: ((node[tag] as XNode[]) ?? []).map((k) => declareUsed(k, own)), ':@': attrs };
}

/** One property in an answer: a name in a namespace and its content (text, XML nodes, or nothing). */
export interface PropOut {
  ns: string;
  name: string;
  text?: string;
  xml?: string;
  nodes?: XNode[];
}

const DAV_PREFIX = 'd';

function propNode(p: PropOut): XNode {
  const tag = p.ns === DAV ? `${DAV_PREFIX}:${p.name}` : p.name;
  let content: XNode[] = [];
  if (p.nodes) content = p.nodes;
  else if (p.xml !== undefined) content = p.xml === '' ? [] : ((parser.parse(`<v>${p.xml}</v>`) as XNode[])[0]!.v as XNode[]);
  else if (p.text !== undefined) content = [{ '#text': p.text }];
  return { [tag]: content, ...(p.ns === DAV ? {} : { ':@': { xmlns: p.ns } }) };
}

const el = (tag: string, content: XNode[] | string): XNode => ({ [`${DAV_PREFIX}:${tag}`]: typeof content === 'string' ? [{ '#text': content }] : content });
export const davEl = el;

/** One <response> of a multistatus: an href and its properties grouped by status. */
export function responseXml(href: string, propstats: Array<{ status: number; props: PropOut[] }>): string {
  const stats = propstats
    .filter((s) => s.props.length > 0)
    .map((s) => el('propstat', [el('prop', s.props.map(propNode)), el('status', `HTTP/1.1 ${s.status} ${reason(s.status)}`)]));
  return builder.build([el('response', [el('href', href), ...stats])]) as string;
}

export const MULTISTATUS_OPEN = `<?xml version="1.0" encoding="utf-8"?>\n<${DAV_PREFIX}:multistatus xmlns:${DAV_PREFIX}="DAV:">`;
export const MULTISTATUS_CLOSE = `</${DAV_PREFIX}:multistatus>`;

/** A whole document: the XML declaration and one root element in the DAV namespace. */
export function davDocument(root: XNode): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build([{ ...root, ':@': { ...(root[':@'] ?? {}), [`xmlns:${DAV_PREFIX}`]: 'DAV:' } }]) as string}`;
}

/** An RFC 4918 error body naming the precondition that failed (e.g. lock-token-submitted). */
export function errorBody(condition: string, href?: string): string {
  return davDocument(el('error', [el(condition, href ? [el('href', href)] : [])]));
}

const reasons: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  423: 'Locked',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};
function reason(status: number): string {
  return reasons[status] ?? 'Error';
}
