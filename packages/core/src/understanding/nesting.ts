/**
 * Deepest nesting of JSON arrays/objects in `text` (brackets inside strings do not count), stopping early once
 * `limit` is passed. A linear scan with no recursion, so a hostile file cannot exhaust the stack here.
 *
 * @example
 * jsonDepth('{"a":[1,[2]]}', 100) // 3
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 93 || c === 125) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/**
 * Deepest element nesting of an XML document, stopping early once `limit` is passed. Counts start tags,
 * end tags and self-closing tags; comments, declarations and processing instructions are skipped.
 *
 * @example
 * xmlDepth('<a><b/><c><d>x</d></c></a>', 100) // 3
 */
export function xmlDepth(xml: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = xml.indexOf('<'); i >= 0; i = xml.indexOf('<', i + 1)) {
    const next = xml.charCodeAt(i + 1);
    if (next === 47) {
      depth = Math.max(0, depth - 1); // '</'
      continue;
    }
    if (next === 33 || next === 63) {
      // '<!--…-->', '<![CDATA[…]]>', '<!DOCTYPE…>', '<?…?>': nothing inside counts.
      const end = xml.startsWith('<!--', i) ? xml.indexOf('-->', i) : xml.startsWith('<![CDATA[', i) ? xml.indexOf(']]>', i) : xml.indexOf('>', i);
      if (end < 0) break;
      i = end;
      continue;
    }
    const close = xml.indexOf('>', i);
    if (close < 0) break;
    if (xml.charCodeAt(close - 1) === 47) continue; // '<x/>' opens and closes
    depth++;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
  }
  return deepest;
}
