/**
 * The lines an edit added to a text: every line of `edited` that `base` does not have (counting repeats), in
 * the edited order, without blank lines at the start or end of the block. Used when a hosted agent edited a
 * memory file while someone else saved it: its new lines are appended to the newest text (M6) rather
 * than its whole copy overwriting the other save.
 *
 * @example
 * addedLines('a\nb\n', 'a\nx\nb\ny\n') // ['x', 'y']
 */
export function addedLines(base: string, edited: string): string[] {
  const left = new Map<string, number>();
  for (const l of splitLines(base)) left.set(l, (left.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const l of splitLines(edited)) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else out.push(l);
  }
  while (out.length && out[0]!.trim() === '') out.shift();
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  return out;
}

/** Lines without their terminators; a final newline does not make an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
