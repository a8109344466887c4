/**
 * The one registry of error codes. Each code has one HTTP status and one default human message; the agent form
 * of any error is `Refused: <message>`. Doors map codes to their own shape (problem+json, `error <code>: …`).
 */
export const errorCodes = {
  bad_request: { status: 400, title: 'The request is not valid' },
  too_deep: { status: 400, title: 'The request nests too deeply' },
  path_invalid: { status: 400, title: 'The path is not valid' },
  invalid_text: { status: 400, title: 'The text holds characters that are not allowed' },
  unauthorized: { status: 401, title: 'A valid token is required' },
  forbidden: { status: 403, title: 'You may not do this' },
  cross_site: { status: 403, title: 'The change came from another site' },
  not_in_conversation: { status: 403, title: 'The agent does not take part in this conversation' },
  not_found: { status: 404, title: 'Not found' },
  agent_suspended: { status: 403, title: 'This agent is suspended: its owner left the project; an admin may reassign or delete it' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  already_exists: { status: 409, title: 'Already exists' },
  version_conflict: { status: 409, title: 'Someone saved a newer version' },
  memory_version_conflict: { status: 409, title: 'Someone saved this memory file since you opened it' },
  not_a_text_file: { status: 415, title: 'Not a text file' },
  preview_unavailable: { status: 415, title: 'No preview for this type; download it instead' },
  too_large: { status: 413, title: 'Too large' },
  headers_too_large: { status: 431, title: 'The request line or headers are too large' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  quota_exceeded: { status: 413, title: 'Not enough storage space' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  precondition_failed: { status: 412, title: 'The file changed' },
  locked: { status: 423, title: 'Locked by someone else' },
  rate_limited: { status: 429, title: 'Too many requests' },
  unavailable: { status: 503, title: 'Not available' },
  internal: { status: 500, title: 'Internal error' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

/**
 * The one error type of Stoa. `message` is safe to show to people and agents: it never contains host paths
 * or stack traces. `details` carries machine-readable context (e.g. the current version on a conflict).
 *
 * @example
 * throw new StoaError('not_found', 'file "a.md" does not exist');
 */
export class StoaError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? errorCodes[code].title);
    this.name = 'StoaError';
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return errorCodes[this.code].status;
  }
  /** The form an agent sees (A5). */
  toRefusal(): string {
    return `Refused: ${this.message}`;
  }
}

export function isStoaError(e: unknown): e is StoaError {
  return e instanceof StoaError || (typeof e === 'object' && e !== null && (e as any).name === 'StoaError' && typeof (e as any).code === 'string');
}

/** Problem details body (RFC 9457) for an error. */
export function toProblem(e: StoaError, instance?: string): Record<string, unknown> {
  return {
    type: `https://stoa.dev/errors/${e.code}`,
    title: errorCodes[e.code].title,
    status: e.status,
    code: e.code,
    detail: e.message,
    ...(instance ? { instance } : {}),
    ...(e.details ?? {}),
  };
}
