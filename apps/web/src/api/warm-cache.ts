/**
 * The first screen's answers of the last visit, kept in this browser so that a reload or a returning visit draws
 * at once from them while the same requests go to the server (stale-while-revalidate, decision 0030). Only the
 * answers the first load asks for early (`prime` in client.ts: who is signed in, the projects, the open folder's
 * tree, first page and usage) are kept, as the server's JSON text, up to {@link WARM_MAX_CHARS} in all.
 *
 * Kept in localStorage: it is read synchronously, so the first render's state can start from it (IndexedDB
 * answers a turn or more later, after the frame it would have to be in), it outlives the tab (sessionStorage
 * would help a reload only), and it is the store that already holds the session token, so nothing becomes
 * readable that was not. It belongs to one sign-in on one server: tagged with a hash of the origin and the
 * token, it is dropped when the tag does not match, and cleared by every change of token (sign-in, sign-out)
 * and every 401 (client.ts). Nothing of one person's is ever read under another's token.
 *
 * @example
 * const text = warmText(token, '/api/v1/me'); // last visit's answer, or undefined
 */
const WARM_KEY = 'stoa.warm';
/** At most this many characters of answers kept (the first folder page of 100 rows is ≈ 30 k). */
const WARM_MAX_CHARS = 200_000;

interface Stored {
  tag: string;
  answers: Record<string, string>;
}

/** This sign-in on this server, as a short tag: the token itself is not copied. */
function tagOf(token: string): string {
  // FNV-1a over two lanes: an equality check, not a secret (the token sits beside it in the same store).
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const c of `${globalThis.location?.origin} ${token}`) {
    a = Math.imul(a ^ c.charCodeAt(0), 16777619);
    b = Math.imul(b ^ c.charCodeAt(0), 2246822519);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36);
}

let loaded: { tag: string; answers: Record<string, string> } | null = null;
/** This visit's answers (of one token), written when the page settles or goes away. */
let visit: { token: string; answers: Record<string, string> } | null = null;
let writeTimer: ReturnType<typeof setTimeout> | undefined;
let unwritten = false;

function stored(token: string): Record<string, string> {
  const tag = tagOf(token);
  if (loaded?.tag === tag) return loaded.answers;
  let answers: Record<string, string> = {};
  try {
    const s = JSON.parse(localStorage.getItem(WARM_KEY) ?? 'null') as Stored | null;
    if (s?.tag === tag && s.answers) answers = s.answers;
    // Another sign-in's (or another server's): never read, removed.
    else if (s) localStorage.removeItem(WARM_KEY);
  } catch {
    /* unreadable: nothing kept */
  }
  loaded = { tag, answers };
  return answers;
}

/**
 * Last visit's answer to a GET of this sign-in, as the server's text, or undefined.
 *
 * @example
 * warmText(getToken()!, '/api/v1/projects')
 */
export function warmText(token: string, url: string): string | undefined {
  return stored(token)[url];
}

/**
 * Keeps this visit's answer for the next one (written when the page settles or goes away, not on the first
 * screen's path). Answers past the size cap are not kept.
 *
 * @example
 * keepWarm(token, '/api/v1/me', text);
 */
export function keepWarm(token: string, url: string, text?: string): void {
  if (visit?.token !== token) visit = { token, answers: {} };
  // Asked, not answered yet: last visit's answer stays kept until this one comes, so a page left before its
  // answers are in (a quick reload) still leaves a whole first screen for the next visit.
  const now = text ?? visit.answers[url] ?? stored(token)[url];
  if (now === undefined) return;
  visit.answers[url] = now;
  unwritten = true;
  clearTimeout(writeTimer);
  writeTimer = setTimeout(writeWarm, 1_000);
}

/** Writes this visit's answers in place of the last visit's: what this visit did not ask for is not kept. */
function writeWarm(): void {
  clearTimeout(writeTimer);
  unwritten = false;
  // Signed out, or someone else signed in, since these were asked: they are not kept. Storage a browser refuses
  // (a private mode, blocked site data) throws on access: then nothing is kept, as on a first visit.
  let token: string | null;
  try {
    token = localStorage.getItem('stoa.token');
  } catch {
    return;
  }
  if (!visit || token !== visit.token) return;
  const answers: Record<string, string> = {};
  let size = 0;
  for (const [url, text] of Object.entries(visit.answers)) {
    if (size + text.length > WARM_MAX_CHARS) continue;
    size += text.length;
    answers[url] = text;
  }
  const tag = tagOf(visit.token);
  try {
    localStorage.setItem(WARM_KEY, JSON.stringify({ tag, answers } satisfies Stored));
  } catch {
    /* over the browser's quota: nothing kept, the next visit asks as before */
    try {
      localStorage.removeItem(WARM_KEY);
    } catch {
      /* storage refused altogether */
    }
  }
}

/**
 * Forgets every kept answer: on sign-in and sign-out (a change of token) and on a 401.
 *
 * @example
 * clearWarm();
 */
export function clearWarm(): void {
  clearTimeout(writeTimer);
  unwritten = false;
  visit = null;
  loaded = null;
  localStorage.removeItem(WARM_KEY);
}

// A reload or a closed tab right after the first screen still keeps its answers.
if (typeof addEventListener === 'function') addEventListener('pagehide', () => unwritten && writeWarm());
