import { resolve, join } from 'node:path';
import { limitSettings, StoaError, type Limits } from '@stoa/contract';
import { SQLITE_MEMORY_DEFAULTS, type SqliteConfig, type VacuumMode } from '@stoa/db';

/** Everything Stoa reads from its environment, parsed once at start-up and passed in (never read at import). */
export interface StoaConfig {
  dataDir: string;
  /**
   * PostgreSQL: `poolSize` connections per server process (STOA_DB_POOL_SIZE, default 10) and whether Stoa
   * vacuums its tables where the server does not (STOA_PG_VACUUM, decision 0036). SQLite: the bytes of
   * the file read through a memory map and of SQLite's own page cache (STOA_SQLITE_MMAP_BYTES, default 1 GiB;
   * STOA_SQLITE_CACHE_BYTES, default 16 MiB; decision 0028).
   */
  database: SqliteConfig | { kind: 'postgres'; url: string; poolSize?: number; vacuum?: VacuumMode };
  storage:
    | { kind: 'fs'; root: string }
    | {
        kind: 's3';
        bucket: string;
        prefix: string;
        endpoint?: string;
        region?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        /** `STOA_S3_REDIRECT_DOWNLOADS` (default on): answer a download with a redirect to a presigned GET, so the
         *  bytes flow from the bucket to the client, not through the server. Off when clients cannot reach the bucket. */
        redirectDownloads?: boolean;
      };
  limits: Limits;
  /**
   * `STOA_INLINE_BLOB_BYTES`: blobs up to this size are kept in the database instead of the blob store (65536 by
   * default; 0 keeps every blob in the store). See docs/decisions/0021-small-blobs-in-the-database.md.
   */
  inlineBlobBytes?: number;
  adminToken?: string;
  /** Public base URL of the server, used in links it prints (login link, presigned fallbacks). */
  publicUrl?: string;
  /** Failed credentials (token, login code, invitation code) allowed per client address and window. */
  auth?: AuthLimits;
  /** Single sign-on through an OpenID Connect provider (`STOA_OIDC_*`); absent = no SSO button. */
  oidc?: OidcConfig;
  /**
   * `STOA_TRUST_PROXY`: whose `X-Forwarded-For`/`-Proto` to believe (the client address the auth throttle counts,
   * https for the Secure cookie). Unset: nobody's, so a client cannot pick its own address. `true`, or a
   * comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy?: boolean | string;
  /** The blob sweep (see startHousekeeping); defaults in `housekeepingOf`. */
  housekeeping?: { sweepIntervalSeconds: number; sweepGraceSeconds: number };
  /** How long and how much the trash keeps (STOA_TRASH_DAYS, STOA_TRASH_MAX_BYTES); defaults in `trashOf`. */
  trash?: TrashSettings;
  /** Caps on file understanding, which parses in worker threads under them; defaults in `parsingOf`. */
  parsing?: ParsingLimits;
  /** The embedding model for vector and hybrid search; absent = search is lexical only. */
  embeddings?: EmbeddingsConfig;
  /**
   * `STOA_AUTO_UNDERSTAND` (default on): a newly written PDF or DOCX is queued for understanding, so the one search
   * finds its text without a manual step. Off (`false`): only `docs understand` (and a reindex) queue them.
   */
  autoUnderstand?: boolean;
  /**
   * `STOA_INDEX_DELAY_MS` (default 50): how long derived data (search postings, vectors, chunks) waits after the
   * commit that changed it, so the changes of those moments are indexed in one pass. Searches are not affected:
   * each first indexes what is pending in its project. 0: on the next turn of the event loop. See `indexDelayOf`.
   */
  indexDelayMs?: number;
  /**
   * `STOA_TEST_CRASH_AT`: for crash-recovery acceptance tests only — the process kills itself (SIGKILL) when it
   * reaches this named point (see `crashPoint`), exactly as a power cut there would. Never set in production.
   */
  testCrashAt?: string;
}

/** The embedding model: an OpenAI-compatible endpoint, or a local ONNX model folder run in-process. */
export type EmbeddingsConfig = OpenAiEmbeddingsConfig | OnnxEmbeddingsConfig;

/**
 * An OpenAI-compatible embeddings endpoint (`POST {url}/embeddings`): OpenAI, Ollama, vLLM, TEI, LocalAI…
 * `STOA_EMBEDDINGS_URL` is the API base (e.g. `http://127.0.0.1:11434/v1`), `STOA_EMBEDDINGS_MODEL` the model,
 * `STOA_EMBEDDINGS_KEY` the bearer key if the endpoint needs one.
 */
export interface OpenAiEmbeddingsConfig {
  kind?: 'openai';
  url: string;
  model: string;
  key?: string;
  /** Texts per request (`STOA_EMBEDDINGS_BATCH`, default 32). */
  batchSize: number;
  /** Longest wait for one request (`STOA_EMBEDDINGS_TIMEOUT_MS`, default 30000). */
  timeoutMs: number;
}

/**
 * A Hugging Face style model folder (`config.json`, `tokenizer.json`, `onnx/model.onnx` or `model.onnx`) run in
 * this process with ONNX Runtime (`STOA_EMBEDDINGS_MODEL_PATH`); nothing is ever downloaded.
 */
export interface OnnxEmbeddingsConfig {
  kind: 'onnx';
  /** The folder, absolute. */
  modelPath: string;
  /** Texts per inference (`STOA_EMBEDDINGS_BATCH`, default 16). */
  batchSize: number;
  /** ONNX Runtime's threads for one inference (`STOA_EMBEDDINGS_THREADS`); absent: the runtime's choice (every core). */
  threads?: number;
}

/** Caps on parsing untrusted files (issue 9): a file over a cap ends `failed` with a reason instead of hurting the server. */
export interface ParsingLimits {
  /** Largest file handed to a parser. */
  maxInputBytes: number;
  /** Largest total a DOCX (zip) or a PDF's compressed streams may unpack to; checked before the parser inflates anything. */
  maxUnpackedBytes: number;
  /** Largest unpacked/packed ratio of one zip entry. */
  maxRatio: number;
  /** Most characters of extracted text kept per file. */
  maxTextChars: number;
  /** Most PDF pages. */
  maxPages: number;
  /** Deepest nesting of JSON and of the XML inside a DOCX. */
  maxDepth: number;
  /** Heap of one parser worker (V8 old generation), in MB; a parse that needs more ends that worker. */
  workerMemoryMb: number;
  /** Longest one parse may run before its worker is terminated. */
  timeoutMs: number;
  /** Parser worker threads at most (parses beyond that wait their turn). */
  workers: number;
  /** Parse attempts of one version before it is `failed` for good, so a file that kills its parser is never retried into a loop. */
  maxAttempts: number;
}

const MB = 1024 * 1024;
/** Environment names and defaults of the parsing caps (README, configuration). */
export const parsingSettings: { [K in keyof ParsingLimits]: { env: string; default: number } } = {
  maxInputBytes: { env: 'STOA_PARSE_MAX_INPUT_BYTES', default: 50 * MB },
  maxUnpackedBytes: { env: 'STOA_PARSE_MAX_UNPACKED_BYTES', default: 200 * MB },
  maxRatio: { env: 'STOA_PARSE_MAX_RATIO', default: 200 },
  maxTextChars: { env: 'STOA_PARSE_MAX_TEXT_CHARS', default: 5_000_000 },
  maxPages: { env: 'STOA_PARSE_MAX_PAGES', default: 5000 },
  maxDepth: { env: 'STOA_PARSE_MAX_DEPTH', default: 1000 },
  workerMemoryMb: { env: 'STOA_PARSE_WORKER_MEMORY_MB', default: 512 },
  timeoutMs: { env: 'STOA_PARSE_TIMEOUT_MS', default: 120_000 },
  workers: { env: 'STOA_PARSE_WORKERS', default: 1 },
  maxAttempts: { env: 'STOA_PARSE_MAX_ATTEMPTS', default: 3 },
};

/** Every parsing cap at its default, overridden by `over` (tests use small caps). */
export function defaultParsingLimits(over: Partial<ParsingLimits> = {}): ParsingLimits {
  const all = Object.fromEntries(Object.entries(parsingSettings).map(([k, s]) => [k, s.default])) as unknown as ParsingLimits;
  return { ...all, ...over };
}

/** The parsing caps of a configuration (the defaults when it names none). */
export function parsingOf(config: StoaConfig): ParsingLimits {
  return config.parsing ?? defaultParsingLimits();
}

/** Sweep settings: STOA_SWEEP_INTERVAL_SECONDS (default 600; 0 = only at start), STOA_SWEEP_GRACE_SECONDS (default 3600). */
export function housekeepingOf(config: StoaConfig): { sweepIntervalSeconds: number; sweepGraceSeconds: number } {
  return config.housekeeping ?? { sweepIntervalSeconds: 600, sweepGraceSeconds: 3600 };
}

export interface TrashSettings {
  /** Days a deleted file or folder stays restorable (`STOA_TRASH_DAYS`, default 30). */
  days: number;
  /** Bytes of all trashes of the installation together (`STOA_TRASH_MAX_BYTES`, default 10 GiB); past it the oldest go first. */
  maxBytes: number;
}

/**
 * Blobs up to this many bytes are kept in the database when the configuration names no size (decision 0021).
 * Measured with acknowledgements made durable by the grouped WAL sync (decision 0022) on a quiet machine: 4 KB PUT
 * 1.27–1.57× and GET 1.39–1.66× the throughput of files at 16 clients, 64 KB PUT 0.95–1.31×, MCP write + read
 * 1.3–1.5× (bench/README.md "Small blobs on by default").
 */
const DEFAULT_INLINE_BLOB_BYTES = 64 * 1024;

/** Past this, a blob is no small blob: the put holds it in memory whole and the database stores it as one value. */
const MAX_INLINE_BLOB_BYTES = 16 * 1024 * 1024;

/** The largest blob kept in the database (0: none), the default when the configuration names none. */
export function inlineBlobBytesOf(config: StoaConfig): number {
  return config.inlineBlobBytes ?? DEFAULT_INLINE_BLOB_BYTES;
}

/**
 * How long derived data waits after a commit when the configuration names no delay. 50 ms folds an agent's write,
 * read, write … into one index pass: MCP write + read pairs took 0.83–0.99× (median 0.87×) the CPU of a pass per
 * write, and 40, 100 and 250 ms measured alike (bench/README.md, "Derived data a burst at a time").
 */
const DEFAULT_INDEX_DELAY_MS = 50;

/** Longer than this, derived data would lag behind for no gain (a pass then holds every change of a minute). */
const MAX_INDEX_DELAY_MS = 60_000;

/** The delay before derived data is written (0: the next turn), the default when the configuration names none. */
export function indexDelayOf(config: StoaConfig): number {
  return config.indexDelayMs ?? DEFAULT_INDEX_DELAY_MS;
}

/** The trash settings of a configuration (the defaults when it names none). */
export function trashOf(config: StoaConfig): TrashSettings {
  return config.trash ?? { days: 30, maxBytes: 10 * 1024 ** 3 };
}

export interface AuthLimits {
  /** `STOA_AUTH_FAILURES`: failed attempts per client address per window before it gets 429 (default 30). */
  failures: number;
  /** `STOA_AUTH_WINDOW_SECONDS`: the window, counted from the first failure (default 60). */
  windowSeconds: number;
}

export const defaultAuthLimits: AuthLimits = { failures: 30, windowSeconds: 60 };

/**
 * Builds the configuration from a data folder and an environment.
 *
 * @example
 * const config = loadConfig({ dataDir: './stoa-data', env: process.env });
 */
export function loadConfig(opts: { dataDir?: string; env: NodeJS.ProcessEnv }): StoaConfig {
  const env = opts.env;
  const dataDir = resolve(opts.dataDir ?? env.STOA_DATA ?? './stoa-data');
  const limits = {} as Limits;
  for (const [name, s] of Object.entries(limitSettings)) {
    const raw = env[s.env];
    if (raw === undefined || raw === '') {
      limits[name as keyof Limits] = s.default;
      continue;
    }
    limits[name as keyof Limits] = nonNegativeInt(s.env, raw);
  }
  const dbUrl = env.STOA_DATABASE_URL;
  const database: StoaConfig['database'] =
    dbUrl && /^postgres(ql)?:\/\//.test(dbUrl)
      ? { kind: 'postgres', url: dbUrl, poolSize: poolSizeOf(env.STOA_DB_POOL_SIZE), vacuum: vacuumModeOf(env.STOA_PG_VACUUM) }
      : {
          kind: 'sqlite',
          file: join(dataDir, 'stoa.db'),
          mmapBytes: nonNegativeSetting(env, 'STOA_SQLITE_MMAP_BYTES', SQLITE_MEMORY_DEFAULTS.mmapBytes),
          cacheBytes: positiveInt(env, 'STOA_SQLITE_CACHE_BYTES', SQLITE_MEMORY_DEFAULTS.cacheBytes),
        };
  const storageUrl = env.STOA_STORAGE_URL;
  let storage: StoaConfig['storage'] = { kind: 'fs', root: join(dataDir, 'blobs') };
  if (storageUrl) {
    const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(storageUrl);
    if (!m) throw new StoaError('bad_request', 'STOA_STORAGE_URL must look like s3://BUCKET[/PREFIX]');
    storage = {
      kind: 's3',
      bucket: m[1]!,
      prefix: m[2] ?? '',
      endpoint: env.STOA_S3_ENDPOINT || undefined,
      region: env.STOA_S3_REGION || env.AWS_REGION || 'us-east-1',
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      redirectDownloads: env.STOA_S3_REDIRECT_DOWNLOADS?.trim() !== 'false',
    };
  }
  const auth: AuthLimits = {
    failures: positiveInt(env, 'STOA_AUTH_FAILURES', defaultAuthLimits.failures),
    windowSeconds: positiveInt(env, 'STOA_AUTH_WINDOW_SECONDS', defaultAuthLimits.windowSeconds),
  };
  const proxy = env.STOA_TRUST_PROXY?.trim();
  const trustProxy = !proxy || proxy === 'false' ? false : proxy === 'true' ? true : proxy;
  const parsing = defaultParsingLimits();
  for (const [name, setting] of Object.entries(parsingSettings) as Array<[keyof ParsingLimits, { env: string }]>) {
    parsing[name] =
      name === 'workers' || name === 'maxAttempts' ? positiveInt(env, setting.env, parsing[name]) : nonNegativeSetting(env, setting.env, parsing[name]);
  }
  const housekeeping = {
    sweepIntervalSeconds: nonNegativeSetting(env, 'STOA_SWEEP_INTERVAL_SECONDS', 600),
    sweepGraceSeconds: nonNegativeSetting(env, 'STOA_SWEEP_GRACE_SECONDS', 3600),
  };
  const trash = { days: nonNegativeSetting(env, 'STOA_TRASH_DAYS', 30), maxBytes: nonNegativeSetting(env, 'STOA_TRASH_MAX_BYTES', 10 * 1024 ** 3) };
  return {
    dataDir,
    database,
    storage,
    limits,
    inlineBlobBytes: cappedSetting(
      env,
      'STOA_INLINE_BLOB_BYTES',
      DEFAULT_INLINE_BLOB_BYTES,
      MAX_INLINE_BLOB_BYTES,
      '16 MiB; larger files belong in the blob store',
    ),
    indexDelayMs: cappedSetting(env, 'STOA_INDEX_DELAY_MS', DEFAULT_INDEX_DELAY_MS, MAX_INDEX_DELAY_MS, 'one minute'),
    auth,
    trustProxy,
    housekeeping,
    trash,
    parsing,
    embeddings: embeddingsFromEnv(env),
    autoUnderstand: !['false', '0', 'off', 'no'].includes(env.STOA_AUTO_UNDERSTAND?.trim().toLowerCase() ?? ''),
    adminToken: env.STOA_ADMIN_TOKEN || undefined,
    publicUrl: publicUrlOf(env.STOA_PUBLIC_URL),
    ...(oidcFromEnv(env) ? { oidc: oidcFromEnv(env) } : {}),
    ...(env.STOA_TEST_CRASH_AT ? { testCrashAt: env.STOA_TEST_CRASH_AT } : {}),
  };
}

/**
 * `STOA_PUBLIC_URL`: where clients reach this server, the start of every absolute URL it writes (issue 27: never
 * the Host header a client sends). An absolute http(s) URL; a trailing slash is dropped.
 */
function publicUrlOf(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash)
    throw new StoaError(
      'bad_request',
      'STOA_PUBLIC_URL must be an absolute http or https URL without credentials, query or fragment, e.g. https://stoa.example.org',
    );
  return v.replace(/(?<!\/)\/+$/, '');
}

function embeddingsFromEnv(env: NodeJS.ProcessEnv): EmbeddingsConfig | undefined {
  const url = env.STOA_EMBEDDINGS_URL?.trim();
  const modelPath = env.STOA_EMBEDDINGS_MODEL_PATH?.trim();
  if (url && modelPath) throw new StoaError('bad_request', 'set STOA_EMBEDDINGS_URL (a model server) or STOA_EMBEDDINGS_MODEL_PATH (a local model), not both');
  if (modelPath) {
    const threads = env.STOA_EMBEDDINGS_THREADS;
    return {
      kind: 'onnx',
      modelPath: resolve(modelPath),
      batchSize: positiveInt(env, 'STOA_EMBEDDINGS_BATCH', 16),
      ...(threads ? { threads: positiveInt(env, 'STOA_EMBEDDINGS_THREADS', 1) } : {}),
    };
  }
  if (!url) return undefined;
  if (!/^https?:\/\//.test(url)) throw new StoaError('bad_request', 'STOA_EMBEDDINGS_URL must be an http(s) URL such as http://127.0.0.1:11434/v1');
  const model = env.STOA_EMBEDDINGS_MODEL?.trim();
  if (!model) throw new StoaError('bad_request', 'STOA_EMBEDDINGS_MODEL must name the model when STOA_EMBEDDINGS_URL is set');
  return {
    url: url.replace(/(?<!\/)\/+$/, ''),
    model,
    key: env.STOA_EMBEDDINGS_KEY || undefined,
    batchSize: positiveInt(env, 'STOA_EMBEDDINGS_BATCH', 32),
    timeoutMs: positiveInt(env, 'STOA_EMBEDDINGS_TIMEOUT_MS', 30_000),
  };
}

function nonNegativeInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n)) throw new StoaError('bad_request', `setting ${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = nonNegativeInt(name, raw);
  if (n === 0) throw new StoaError('bad_request', `setting ${name} must be at least 1, got "${raw}"`);
  return n;
}

function nonNegativeSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : nonNegativeInt(name, raw);
}

/** A non-negative setting with an upper bound; past it the message says the bound (`what`: it in words, and why). */
function cappedSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number, what: string): number {
  const n = nonNegativeSetting(env, name, fallback);
  if (n > max) throw new StoaError('bad_request', `${name} must be at most ${max} (${what})`);
  return n;
}

/**
 * Connections each server process keeps to PostgreSQL. Several servers share one database, whose
 * max_connections (100 by default) must cover the sum, with room for maintenance.
 */
function poolSizeOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 10;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new StoaError('bad_request', `setting STOA_DB_POOL_SIZE must be an integer from 1 to 1000, got "${raw}"`);
  return n;
}

/**
 * `STOA_PG_VACUUM`: `auto` (default) vacuums Stoa's tables where the PostgreSQL server's autovacuum is off
 * (decision 0036); `off` leaves vacuuming to the operator.
 */
function vacuumModeOf(raw: string | undefined): VacuumMode {
  if (raw === undefined || raw === '' || raw === 'auto') return 'auto';
  if (raw === 'off') return 'off';
  throw new StoaError('bad_request', `setting STOA_PG_VACUUM must be "auto" or "off", got "${raw}"`);
}

/**
 * Single sign-on through any OpenID Connect provider (issue 31). A person signs in through it when their identity
 * is linked: by opening an invitation link and choosing the provider, or — with `allowedDomains` — by a verified
 * email address in one of those domains (a new person is then named by that address).
 */
export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is at `/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Email domains whose verified addresses may sign in without an invitation; empty = invitations only. */
  allowedDomains: string[];
  /** The provider's name on the sign-in button. */
  name: string;
}

/** `STOA_OIDC_ISSUER`, `STOA_OIDC_CLIENT_ID`, `STOA_OIDC_CLIENT_SECRET`, `STOA_OIDC_DOMAINS` (comma-separated), `STOA_OIDC_NAME`. */
function oidcFromEnv(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.STOA_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const clientId = env.STOA_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error('STOA_OIDC_ISSUER is set: STOA_OIDC_CLIENT_ID is required too');
  try {
    new URL(issuer);
  } catch {
    throw new Error('STOA_OIDC_ISSUER must be an absolute URL');
  }
  return {
    issuer,
    clientId,
    clientSecret: env.STOA_OIDC_CLIENT_SECRET ?? '',
    allowedDomains: (env.STOA_OIDC_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    name: env.STOA_OIDC_NAME?.trim() || 'single sign-on',
  };
}
