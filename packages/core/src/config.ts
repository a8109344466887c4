import { resolve, join } from 'node:path';
import { limitSettings, StoaError, type Limits } from '@stoa/contract';

/** Everything Stoa reads from its environment, parsed once at start-up and passed in (never read at import). */
export interface StoaConfig {
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  storage:
    | { kind: 'fs'; root: string }
    | { kind: 's3'; bucket: string; prefix: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };
  limits: Limits;
  adminToken?: string;
  /** Public base URL of the server, used in links it prints (login link, presigned fallbacks). */
  publicUrl?: string;
  /** Failed credentials (token, login code, invitation code) allowed per client address and window. */
  auth?: AuthLimits;
  /**
   * `STOA_TRUST_PROXY`: whose `X-Forwarded-For`/`-Proto` to believe (the client address the auth throttle counts,
   * https for the Secure cookie). Unset: nobody's, so a client cannot pick its own address. `true`, or a
   * comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy?: boolean | string;
  /** The blob sweep (see startHousekeeping); defaults in `housekeepingOf`. */
  housekeeping?: { sweepIntervalSeconds: number; sweepGraceSeconds: number };
}

/** Sweep settings: STOA_SWEEP_INTERVAL_SECONDS (default 600; 0 = only at start), STOA_SWEEP_GRACE_SECONDS (default 3600). */
export function housekeepingOf(config: StoaConfig): { sweepIntervalSeconds: number; sweepGraceSeconds: number } {
  return config.housekeeping ?? { sweepIntervalSeconds: 600, sweepGraceSeconds: 3600 };
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
    dbUrl && /^postgres(ql)?:\/\//.test(dbUrl) ? { kind: 'postgres', url: dbUrl } : { kind: 'sqlite', file: join(dataDir, 'stoa.db') };
  const storageUrl = env.STOA_STORAGE_URL;
  let storage: StoaConfig['storage'] = { kind: 'fs', root: join(dataDir, 'blobs') };
  if (storageUrl) {
    const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(storageUrl);
    if (!m) throw new StoaError('bad_request', 'STOA_STORAGE_URL must look like s3://BUCKET[/PREFIX]');
    storage = {
      kind: 's3',
      bucket: m[1]!,
      prefix: m[2] ?? '',
      endpoint: env.STOA_S3_ENDPOINT || undefined,
      region: env.STOA_S3_REGION || env.AWS_REGION || 'us-east-1',
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    };
  }
  const auth: AuthLimits = {
    failures: positiveInt(env, 'STOA_AUTH_FAILURES', defaultAuthLimits.failures),
    windowSeconds: positiveInt(env, 'STOA_AUTH_WINDOW_SECONDS', defaultAuthLimits.windowSeconds),
  };
  const proxy = env.STOA_TRUST_PROXY?.trim();
  const trustProxy = !proxy || proxy === 'false' ? false : proxy === 'true' ? true : proxy;
  const housekeeping = { sweepIntervalSeconds: seconds(env, 'STOA_SWEEP_INTERVAL_SECONDS', 600), sweepGraceSeconds: seconds(env, 'STOA_SWEEP_GRACE_SECONDS', 3600) };
  return { dataDir, database, storage, limits, auth, trustProxy, housekeeping, adminToken: env.STOA_ADMIN_TOKEN || undefined, publicUrl: env.STOA_PUBLIC_URL || undefined };
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

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : nonNegativeInt(name, raw);
}
