/*
 * The browser's name collator, built once. Building it loads the collation data and costs tens of milliseconds,
 * so the entry builds it while the first load's requests are still on the wire (`warmIntl`), instead of in the
 * middle of rendering the first rows. (Dates need no Intl object: see `formatDate`.)
 */
const names = new Map<string, Intl.Collator>();

/**
 * Compares names as people read them: "file 2" before "file 10", case and accents aside, in the order of the
 * given language (the browser's when none is given).
 *
 * @example
 * ['b', 'file 10', 'file 2'].sort(nameCollator().compare) // ['b', 'file 2', 'file 10']
 */
export function nameCollator(lang?: string): Intl.Collator {
  let c = names.get(lang ?? '');
  if (!c) names.set(lang ?? '', (c = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' })));
  return c;
}

/**
 * Compares folder or page paths segment by segment, each as a name: a folder's contents stay right under it and
 * "meeting-2" comes before "meeting-10".
 *
 * @example
 * ['a/10', 'a/2', 'a-b'].sort(comparePaths) // ['a/2', 'a/10', 'a-b']
 */
export function comparePaths(a: string, b: string, lang?: string): number {
  const x = a.split('/');
  const y = b.split('/');
  const c = nameCollator(lang);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = c.compare(x[i]!, y[i]!) || (x[i]! < y[i]! ? -1 : x[i]! > y[i]! ? 1 : 0);
    if (d) return d;
  }
  return x.length - y.length;
}

/**
 * Builds the collator in a task of its own right after the entry's: the main thread then waits for the app's
 * script (a warm load, whose first render waits for no answer) or the first answers (a cold one), and the first
 * render sorts its rows without building it. An idle callback came too late on a warm load: the render found no
 * collator and built it in the middle of drawing (≈ 20 ms on these machines, bench/README.md).
 *
 * @example
 * warmIntl();
 */
export function warmIntl(): void {
  setTimeout(() => nameCollator().compare('a', 'b'), 0);
}
