import type { RouteInput, RouteOutput } from '@stoa/contract';
import { routeRequest, type RouteRef } from '@stoa/contract/route-ref';
import { clearWarm, keepWarm, warmText } from './warm-cache.js';

/**
 * The one HTTP client of the web UI. Every call names a route of the table (`routeIndex` from
 * `@stoa/contract/route-index`, generated from packages/contract), which types its input and answer and lays
 * them out as the server reads them; it adds the bearer token and turns `application/problem+json` answers
 * into {@link ApiError} with the server's stable `code`.
 *
 * @example
 * const usage = await call(routeIndex.files.usage, { project: 'default' });
 */
const TOKEN_KEY = 'stoa.token';

/**
 * An error answer of the API: `code` is the server's stable code (problem+json), `details` the rest of the body.
 *
 * @example
 * if (e instanceof ApiError && e.code === 'memory_version_conflict') showConflict();
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;
  constructor(code: string, status: number, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/**
 * The session token of this browser (localStorage), or null when signed out.
 *
 * @example
 * if (!getToken()) navigate('/login');
 */
export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/**
 * Keeps (or, with null, forgets) the session token.
 *
 * @example
 * setToken(r.token); // after POST /auth/login
 */
export function setToken(token: string | null): void {
  // A new sign-in or a sign-out: the last one's kept first screen is never shown again.
  clearWarm();
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Listeners told when the server says the token is not (or no longer) valid. */
const unauthorizedListeners = new Set<() => void>();
/**
 * Calls `fn` whenever the server answers 401; returns the unsubscribe function.
 *
 * @example
 * useEffect(() => onUnauthorized(() => navigate('/login')), []);
 */
export function onUnauthorized(fn: () => void): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/**
 * The browser URL of a route with its input laid out as the server reads it (path, then query string).
 *
 * @example
 * routeUrl(routeIndex.files.upload, { project: 'default', path: 'a b.bin' }) // "/api/v1/projects/default/files/content?path=a+b.bin"
 */
export function routeUrl<R>(ref: RouteRef<R>, input: RouteInput<R>): string {
  return `/api/v1${routeRequest(ref, input as Record<string, unknown>).target}`;
}

/**
 * Calls a route of the table and returns the raw response (downloads, previews), throwing {@link ApiError}
 * for any error status.
 *
 * @example
 * const res = await open(routeIndex.files.preview, { project: 'default', path: 'a.txt' });
 */
export async function open<R>(ref: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal): Promise<Response> {
  const { target, body } = routeRequest(ref, input as Record<string, unknown>);
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/v1${target}`, { method: ref.method, headers, body: body && JSON.stringify(body), signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError('network', 0, (e as Error).message);
  }
  if (!res.ok) throw await toApiError(res);
  return res;
}

function unauthorized(): void {
  clearWarm();
  for (const fn of unauthorizedListeners) fn();
}

async function toApiError(res: Response): Promise<ApiError> {
  let problem: Record<string, unknown> = {};
  try {
    problem = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON: keep the status only */
  }
  const code = typeof problem.code === 'string' ? problem.code : `http_${res.status}`;
  if (res.status === 401) unauthorized();
  const message = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : res.statusText;
  return new ApiError(code, res.status, message, problem);
}

/**
 * Calls a JSON route of the table: the input and the answer are typed by the route's definition.
 *
 * @example
 * const page = await call(routeIndex.files.folder, { project: 'default', folder: 'reports' });
 */
export function call<R>(ref: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal): Promise<RouteOutput<R>> {
  // By token too: an answer asked for one sign-in is never handed to another.
  const url = routeUrl(ref, input);
  const key = `${getToken()} ${url}`;
  if (peeking) {
    peeked = ref.method === 'GET' ? key : null;
    return new Promise<never>(() => undefined);
  }
  if (ref.method !== 'GET') return fetchJson(ref, input, signal);
  if (priming) {
    // The first screen's answers are kept for the next visit (warm-cache.ts), and so is every later answer to
    // the same call in this visit (a folder reloaded after a change), so the next visit starts from the latest.
    kept.add(key);
    const token = getToken();
    if (token) keepWarm(token, url);
    const p = fetchJson(ref, input);
    const entry: Primed = { at: Date.now(), answer: p };
    // Nobody waits on it yet: a failure is reported to whoever asks for it, by asking again.
    p.then(
      (value) => (entry.arrived = { value }),
      () => undefined,
    );
    primed.set(key, entry);
    return p;
  }
  const early = primed.get(key);
  primed.delete(key);
  if (!early || Date.now() - early.at > PRIMED_FOR_MS) return fetchJson(ref, input, signal);
  return early.answer.catch(() => fetchJson(ref, input, signal)) as Promise<RouteOutput<R>>;
}

async function fetchJson<R>(ref: RouteRef<R>, input: RouteInput<R>, signal?: AbortSignal): Promise<RouteOutput<R>> {
  const token = getToken();
  const res = await open(ref, input, signal);
  if (res.status === 204) return undefined as RouteOutput<R>;
  const url = routeUrl(ref, input);
  if (!token || !kept.has(`${token} ${url}`)) return (await res.json()) as RouteOutput<R>;
  const text = await res.text();
  // The token changed while this was on the wire: its answer is not kept under the new one.
  if (getToken() !== token) return JSON.parse(text) as RouteOutput<R>;
  keepWarm(token, url, text);
  // Unchanged since the last visit: the very object the first render drew, so state setters see no change and
  // nothing renders again.
  const shown = warmShown.get(url);
  return (shown && shown.text === text ? shown.value : JSON.parse(text)) as RouteOutput<R>;
}

/** The calls whose answers are kept for the next visit (by token and URL): those the first load asked for early. */
const kept = new Set<string>();
/** Last visit's answers a first render drew (`arrived`), parsed once, by URL. */
const warmShown = new Map<string, { text: string; value: unknown }>();

interface Primed {
  at: number;
  answer: Promise<unknown>;
  /** Set once the answer is in, so a first render can use it at once (see `arrived`). */
  arrived?: { value: unknown };
}
/** Answers asked for before the page asks (the first load, issue 13), each handed out once, by token and URL. */
const primed = new Map<string, Primed>();
/** An early answer older than this is not handed out: the page asks again rather than show stale data. */
const PRIMED_FOR_MS = 5_000;
let priming = false;
let peeking = false;
let peeked: string | null = null;

/**
 * Runs `fn` so that the GET calls it makes start now and are kept for the first identical call that follows:
 * the first load asks for a page's data while the page's code is still starting. A failed early answer is
 * asked again by that call, so errors (401 first) surface as usual.
 *
 * @example
 * prime(() => filesApi.me());
 */
export function prime(fn: () => void): void {
  priming = true;
  try {
    fn();
  } finally {
    priming = false;
  }
}

/**
 * The early answer to the one GET call `fn` makes, if it is already in (and fresh), without taking it: a page's
 * first render shows it at once instead of a placeholder that the same answer replaces a frame later. The page
 * still makes the call as usual (which takes the answer, so nothing is fetched twice).
 *
 * @example
 * const [page, setPage] = useState(() => arrived(() => filesApi.folder(pid, folder)) ?? null);
 */
export function arrived<T>(fn: () => Promise<T>): T | undefined {
  peeking = true;
  peeked = null;
  try {
    void fn();
  } finally {
    peeking = false;
  }
  const key = peeked as string | null;
  const early = key === null ? undefined : primed.get(key);
  if (!early || Date.now() - early.at > PRIMED_FOR_MS) return undefined;
  if (early.arrived) return early.arrived.value as T;
  return warmAnswer(key!) as T | undefined;
}

/**
 * Last visit's answer to a call asked for early and still on the wire (warm-cache.ts): the first render draws it,
 * and the page's own call takes the fresh answer, which replaces it.
 */
function warmAnswer(key: string): unknown {
  const token = getToken();
  const url = key.slice(key.indexOf(' ') + 1);
  if (!token || !key.startsWith(`${token} `)) return undefined;
  const seen = warmShown.get(url);
  if (seen) return seen.value;
  const text = warmText(token, url);
  if (text === undefined) return undefined;
  const value: unknown = JSON.parse(text);
  warmShown.set(url, { text, value });
  return value;
}

/**
 * Whether every call asked for early so far has last visit's answer to draw from: the first render need not wait
 * for the server (main.tsx).
 *
 * @example
 * const waitForAnswers = !allWarm();
 */
export function allWarm(): boolean {
  const token = getToken();
  if (!token || primed.size === 0) return false;
  for (const key of primed.keys()) if (!key.startsWith(`${token} `) || warmText(token, key.slice(token.length + 1)) === undefined) return false;
  return true;
}

/**
 * Sends a file body with upload progress (fetch cannot report it). `absolute` URLs (presigned object storage)
 * get no bearer token: the signature is the credential there. Aborting `signal` aborts the request and rejects
 * with an AbortError, like fetch.
 *
 * @example
 * await sendWithProgress('PUT', routeUrl(routeIndex.files.upload, { project: 'default', path: 'a.bin' }), file, {}, (n) => console.log(n));
 */
export function sendWithProgress<T>(
  method: string,
  url: string,
  body: Blob,
  headers: Record<string, string>,
  onProgress?: (loaded: number) => void,
  absolute = false,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () => new DOMException('the upload was cancelled', 'AbortError');
    if (signal?.aborted) return reject(aborted());
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.onloadend = () => signal?.removeEventListener('abort', onAbort);
    xhr.onabort = () => reject(aborted());
    xhr.open(method, url);
    const token = getToken();
    if (token && !absolute) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onerror = () => reject(new ApiError('network', 0, 'the upload was interrupted'));
    xhr.onload = () => {
      let json: Record<string, unknown> = {};
      try {
        json = xhr.responseText ? (JSON.parse(xhr.responseText) as Record<string, unknown>) : {};
      } catch {
        /* object storage answers XML or nothing */
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(json as T);
      if (xhr.status === 401 && !absolute) unauthorized();
      const code = typeof json.code === 'string' ? json.code : `http_${xhr.status}`;
      reject(new ApiError(code, xhr.status, typeof json.detail === 'string' ? json.detail : xhr.statusText, json));
    };
    xhr.send(body);
  });
}
