import { StoaError } from '@stoa/contract';

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new StoaError('bad_request', 'the path has bad percent-encoding');
  }
}

/** Splits a request URL below a DAV mount into the decoded file path (no leading or trailing slash). */
export function davPath(url: string, mount: string): string {
  const raw = url.split('?')[0]!.slice(mount.length);
  const decoded = raw
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment)
    .join('/');
  return decoded.normalize('NFC');
}

/** The href of a path under a mount, each segment percent-encoded; collections end in "/". */
export function davHref(mount: string, path: string, collection: boolean): string {
  const enc = path === '' ? '' : path.split('/').map(encodeURIComponent).join('/');
  return `${mount}/${enc}${collection && enc !== '' ? '/' : ''}`;
}

/**
 * The file path named by a Destination header (or an `If` resource tag), which must point into the same
 * mount; null when it points elsewhere. Bad percent-encoding is bad_request.
 */
export function destinationPath(header: string | undefined, mount: string): string | null {
  if (!header) return null;
  let pathname: string;
  try {
    pathname = new URL(header, 'http://localhost').pathname;
  } catch {
    throw new StoaError('bad_request', 'Destination is not a valid URL');
  }
  if (!pathname.startsWith(mount + '/') && pathname !== mount) return null;
  return davPath(pathname, mount);
}
