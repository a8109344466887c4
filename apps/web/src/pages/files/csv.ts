/** The rows read of a CSV or TSV text, and whether there were more than asked for. */
interface ParsedTable {
  rows: string[][];
  /** True when the text holds more rows than `maxRows`. */
  truncated: boolean;
}

/**
 * Reads CSV (RFC 4180) or TSV text into rows of fields: a field in double quotes may hold the separator, line
 * breaks and doubled quotes (`""` is one `"`); rows end at LF, CRLF or CR; a byte-order mark is skipped. Reading
 * stops after `maxRows` rows, so a huge file costs only what is shown. Never throws: an unclosed quote runs to
 * the end of the text, as spreadsheet programs read it.
 *
 * @example
 * parseDelimited('name,note\n"Smith, J","said ""hi""\nthen left"\n', ',').rows // [['name','note'],['Smith, J','said "hi"\nthen left']]
 */
export function parseDelimited(text: string, separator: ',' | '\t' | ';', maxRows = Infinity): ParsedTable {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < n) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === separator) {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\n' || c === '\r') {
      if (rows.length === maxRows) return { rows, truncated: true };
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0 || quoted) {
    if (rows.length === maxRows) return { rows, truncated: true };
    endRow();
  }
  return { rows, truncated: false };
}

/**
 * The separator of a file by its name: tab for .tsv/.tab, otherwise a comma, or a semicolon when the first line
 * has semicolons and no commas (spreadsheets in many European languages write those).
 *
 * @example
 * separatorOf('data.tsv', 'a\tb') // '\t'
 */
export function separatorOf(name: string, text: string): ',' | '\t' | ';' {
  if (/\.(tsv|tab)$/i.test(name)) return '\t';
  const end = text.search(/[\r\n]/);
  const first = end < 0 ? text : text.slice(0, end);
  return first.includes(';') && !first.includes(',') ? ';' : ',';
}
