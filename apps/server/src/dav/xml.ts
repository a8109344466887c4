/** Escapes text for XML element content and attribute values. */
export function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export interface DavEntry {
  href: string;
  name: string;
  collection: boolean;
  size?: number;
  type?: string;
  modified?: string;
  created?: string;
  etag?: string;
}

/** HTTP-date (RFC 1123) for getlastmodified. */
function httpDate(iso: string | undefined): string {
  return new Date(iso ?? Date.now()).toUTCString();
}

/**
 * A 207 Multi-Status body for PROPFIND with the live properties file managers, davfs2 and rclone read.
 *
 * @example
 * multistatus([{ href: '/dav/a.md', name: 'a.md', collection: false, size: 3 }])
 */
export function multistatus(entries: DavEntry[]): string {
  const responses = entries.map((e) => {
    const props = [
      `<d:displayname>${xmlEscape(e.name)}</d:displayname>`,
      e.collection ? '<d:resourcetype><d:collection/></d:resourcetype>' : '<d:resourcetype/>',
      `<d:getlastmodified>${httpDate(e.modified)}</d:getlastmodified>`,
      `<d:creationdate>${new Date(e.created ?? e.modified ?? Date.now()).toISOString()}</d:creationdate>`,
      ...(e.collection ? [] : [`<d:getcontentlength>${e.size ?? 0}</d:getcontentlength>`, `<d:getcontenttype>${xmlEscape(e.type ?? 'application/octet-stream')}</d:getcontenttype>`]),
      ...(e.etag ? [`<d:getetag>"${xmlEscape(e.etag)}"</d:getetag>`] : []),
      '<d:supportedlock><d:lockentry><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry></d:supportedlock>',
    ].join('');
    return `<d:response><d:href>${xmlEscape(e.href)}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">${responses.join('')}</d:multistatus>`;
}

/** A lock discovery body: Stoa grants advisory locks so Finder and Windows clients write (edits stay versioned). */
export function lockDiscovery(token: string, href: string, timeoutSeconds: number): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:prop xmlns:d="DAV:"><d:lockdiscovery><d:activelock><d:locktype><d:write/></d:locktype><d:lockscope><d:exclusive/></d:lockscope><d:depth>0</d:depth><d:timeout>Second-${timeoutSeconds}</d:timeout><d:locktoken><d:href>${xmlEscape(token)}</d:href></d:locktoken><d:lockroot><d:href>${xmlEscape(href)}</d:href></d:lockroot></d:activelock></d:lockdiscovery></d:prop>`;
}

/** A PROPPATCH answer that accepts the (dead) properties clients set, such as Windows timestamps. */
export function proppatchOk(href: string, body: string): string {
  const names = [...body.matchAll(/<([A-Za-z0-9_-]+:)?([A-Za-z0-9_-]+)[^>]*?(?:\/>|>)/g)]
    .map((m) => m[2]!)
    .filter((n) => !['propertyupdate', 'set', 'remove', 'prop'].includes(n));
  const props = [...new Set(names)].map((n) => `<x:${n} xmlns:x="urn:stoa:dead"/>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:"><d:response><d:href>${xmlEscape(href)}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`;
}
