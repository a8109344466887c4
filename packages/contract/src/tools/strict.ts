/**
 * Tool input schemas for the vendors' strict modes (issue 28), derived from the full schemas every door validates
 * with. Strict mode compiles the schema into a grammar, so each vendor takes only a subset of JSON Schema:
 *
 * - OpenAI Structured Outputs (function tools with `strict: true`): every object has `additionalProperties: false`
 *   and lists every property in `required`, an optional one being nullable (`type: [T, "null"]`); `minLength`,
 *   `maxLength` and `default` are not supported (`pattern`, a few `format`s, the number bounds and
 *   `minItems`/`maxItems` are).
 * - Anthropic strict tool use (`strict: true`): every object has `additionalProperties: false`; optional properties
 *   stay optional; no number bounds, no `minLength`/`maxLength`, `minItems` only 0 or 1, no `maxItems`, no `default`.
 *
 * What a vendor cannot enforce moves into the property's description, so the model still reads it, and the
 * server keeps checking the full schema: a strict client's nulls are taken back to "absent" (`dropStrictNulls`).
 */

export type StrictVendor = 'openai' | 'anthropic';
type Json = Record<string, unknown>;

/** The string formats each vendor's strict mode enforces. */
export const STRICT_FORMATS: Record<StrictVendor, readonly string[]> = {
  openai: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
  anthropic: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'],
};

/** Keywords each vendor's strict mode refuses or ignores; `minItems` is special-cased for Anthropic (0 or 1). */
export const STRICT_UNSUPPORTED: Record<StrictVendor, readonly string[]> = {
  openai: [
    'minLength',
    'maxLength',
    'default',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'uniqueItems',
    'contains',
    'allOf',
    'not',
    'if',
    'then',
    'else',
    'oneOf',
  ],
  anthropic: [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minLength',
    'maxLength',
    'maxItems',
    'default',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'uniqueItems',
    'contains',
    'not',
    'if',
    'then',
    'else',
    'oneOf',
  ],
};

/** Words for a dropped keyword, appended to the description (a bound at the integer limit says nothing). */
function note(key: string, value: unknown): string | null {
  if (typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) return null;
  switch (key) {
    case 'minLength':
      return value === 1 ? 'not empty' : `at least ${String(value)} characters`;
    case 'maxLength':
      return `at most ${String(value)} characters`;
    case 'minimum':
      return `at least ${String(value)}`;
    case 'maximum':
      return `at most ${String(value)}`;
    case 'exclusiveMinimum':
      return `more than ${String(value)}`;
    case 'exclusiveMaximum':
      return `less than ${String(value)}`;
    case 'multipleOf':
      return `a multiple of ${String(value)}`;
    case 'minItems':
      return `at least ${String(value)} items`;
    case 'maxItems':
      return `at most ${String(value)} items`;
    case 'default':
      return `default ${JSON.stringify(value)}`;
    case 'format':
      return `format ${String(value)}`;
    default:
      return null;
  }
}

function withNull(s: Json): Json {
  if (Array.isArray(s.type))
    return s.type.includes('null') ? s : { ...s, type: [...(s.type as string[]), 'null'], ...(s.enum ? { enum: [...(s.enum as unknown[]), null] } : {}) };
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: [...(s.enum as unknown[]), null] } : {}) };
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: [...(s.anyOf as Json[]), { type: 'null' }] };
  return { anyOf: [s, { type: 'null' }] };
}

function convert(s: Json, vendor: StrictVendor): Json {
  const out: Json = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(s)) {
    const dropFormat = k === 'format' && !STRICT_FORMATS[vendor].includes(String(v));
    const dropMinItems = vendor === 'anthropic' && k === 'minItems' && Number(v) > 1;
    if (STRICT_UNSUPPORTED[vendor].includes(k) || dropFormat || dropMinItems) {
      const n = note(k, v);
      if (n) notes.push(n);
      continue;
    }
    if (k === 'properties' || k === 'required' || k === 'additionalProperties') continue;
    if (k === 'items' && v && typeof v === 'object' && !Array.isArray(v)) out.items = convert(v as Json, vendor);
    else if ((k === 'anyOf' || k === 'allOf') && Array.isArray(v)) out[k] = (v as Json[]).map((x) => convert(x, vendor));
    else if (k === '$defs' && v && typeof v === 'object')
      out.$defs = Object.fromEntries(Object.entries(v as Json).map(([n, d]) => [n, convert(d as Json, vendor)]));
    else out[k] = v;
  }
  if (notes.length) out.description = [typeof out.description === 'string' ? out.description : '', `(${notes.join('; ')})`].filter(Boolean).join(' ');
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || s.properties !== undefined;
  if (isObject) {
    const props = (s.properties ?? {}) as Record<string, Json>;
    const required = new Set((s.required ?? []) as string[]);
    const converted: Record<string, Json> = {};
    for (const [name, p] of Object.entries(props)) {
      const c = convert(p, vendor);
      converted[name] = vendor === 'openai' && !required.has(name) ? withNull(c) : c;
    }
    out.properties = converted;
    out.required = vendor === 'openai' ? Object.keys(props) : [...required];
    out.additionalProperties = false;
  }
  return out;
}

/**
 * A tool's input schema for a vendor's strict mode.
 *
 * @example
 * strictSchema({ type: 'object', properties: { path: { type: 'string', minLength: 1 }, n: { type: 'integer' } }, required: ['path'] }, 'openai')
 * // { type: 'object', properties: { path: { type: 'string', description: '(not empty)' }, n: { type: ['integer', 'null'] } },
 * //   required: ['path', 'n'], additionalProperties: false }
 */
export function strictSchema(schema: Json, vendor: StrictVendor): Json {
  return convert(schema, vendor);
}

function acceptsNull(s: Json | undefined): boolean {
  if (!s) return true;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).some(acceptsNull);
  return s.type === undefined && s.enum === undefined && s.const === undefined && s.anyOf === undefined;
}

/**
 * A strict client's arguments as the full schema means them: a null where the full schema takes no null is an
 * optional argument left out (OpenAI strict mode sends every property, the unused ones as null). Everything else is
 * left for the full schema to check.
 *
 * @example
 * dropStrictNulls({ type: 'object', properties: { mode: { type: 'string' } } }, { path: 'a', mode: null }) // { path: 'a' }
 */
export function dropStrictNulls(schema: Json, args: unknown): unknown {
  if (Array.isArray(args)) {
    const items = schema.items as Json | undefined;
    return items ? args.map((a) => dropStrictNulls(items, a)) : args;
  }
  if (!args || typeof args !== 'object') return args;
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (v === null && props[k] && !required.has(k) && !acceptsNull(props[k])) continue;
    out[k] = props[k] ? dropStrictNulls(props[k], v) : v;
  }
  return out;
}

/** True when some value in the arguments is null (only then is the schema worth looking up). */
export function hasNull(args: unknown): boolean {
  if (args === null) return true;
  if (Array.isArray(args)) return args.some(hasNull);
  if (typeof args === 'object') return Object.values(args as object).some(hasNull);
  return false;
}
