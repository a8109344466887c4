/*
 * The browser's name collator, built once. Building it loads the collation data and costs tens of milliseconds,
 * so the entry builds it while the first load's requests are still on the wire (`warmIntl`), instead of in the
 * middle of rendering the first rows. (Dates need no Intl object: see `formatDate`.)
 */
let names: Intl.Collator | undefined;

/**
 * Compares names as people read them: "file 2" before "file 10", case and accents aside.
 *
 * @example
 * ['b', 'file 10', 'file 2'].sort(nameCollator().compare) // ['b', 'file 2', 'file 10']
 */
export function nameCollator(): Intl.Collator {
  return (names ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));
}

/**
 * Builds the collator when the page is next idle (the first load waits on the network then).
 *
 * @example
 * warmIntl();
 */
export function warmIntl(): void {
  const warm = () => nameCollator().compare('a', 'b');
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 1000 });
  else setTimeout(warm, 0);
}
