import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';

type Json = Record<string, any>;

/**
 * The vendors' strict-mode rules, written from their documentation (issue 28), checked on every schema node.
 * OpenAI Structured Outputs ("Supported schemas", platform.openai.com/docs/guides/structured-outputs): the root is
 * an object; every object has additionalProperties: false and all its properties required; the supported keywords
 * are type, description, properties, required, additionalProperties, items, enum, const, anyOf, $ref/$defs, pattern,
 * format (date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid), minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems; nesting up to 10 levels.
 * Anthropic strict tool use ("JSON Schema limitations", platform.claude.com/docs/en/build-with-claude/structured-outputs):
 * every object has additionalProperties: false; no numeric bounds, no minLength/maxLength, minItems only 0 or 1,
 * no maxItems; formats date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid; a pattern without
 * backreferences, lookaround or \b; no recursive schemas.
 */
const COMMON = ['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs'];
const RULES = {
  openai: {
    keywords: [...COMMON, 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems'],
    formats: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
    allRequired: true,
  },
  anthropic: {
    keywords: [...COMMON, 'allOf', 'pattern', 'format', 'minItems'],
    formats: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'],
    allRequired: false,
  },
} as const;

function violations(vendor: keyof typeof RULES, s: Json, at = '$', depth = 0): string[] {
  const rules = RULES[vendor];
  const out: string[] = [];
  if (depth > 10) out.push(`${at}: nested deeper than 10`);
  for (const k of Object.keys(s)) if (!(rules.keywords as readonly string[]).includes(k)) out.push(`${at}: keyword ${k}`);
  if (s.format !== undefined && !(rules.formats as readonly string[]).includes(s.format)) out.push(`${at}: format ${s.format}`);
  if (vendor === 'anthropic' && s.minItems !== undefined && s.minItems > 1) out.push(`${at}: minItems ${s.minItems}`);
  if (typeof s.pattern === 'string' && /\(\?[=!<]|\\b|\\[1-9]/.test(s.pattern)) out.push(`${at}: pattern ${s.pattern}`);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('object') || s.properties) {
    if (s.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    const props = Object.keys(s.properties ?? {});
    if (rules.allRequired && props.some((p) => !(s.required ?? []).includes(p))) out.push(`${at}: not every property is required`);
    for (const [name, p] of Object.entries(s.properties ?? {})) out.push(...violations(vendor, p as Json, `${at}.${name}`, depth + 1));
  }
  if (s.items) out.push(...violations(vendor, s.items, `${at}[]`, depth + 1));
  for (const [i, a] of (s.anyOf ?? []).entries()) out.push(...violations(vendor, a, `${at}|${i}`, depth + 1));
  return out;
}

describe('strict tool schemas over HTTP', () => {
  let t: TestPlatform;
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    t = await createTestPlatform('sqlite');
    app = await buildApp({ platform: t.platform, webRoot: null });
    admin = (await createToken(await t.admin(), { user: 'admin' })).token;
  });
  afterAll(async () => {
    await app.close();
    await t.cleanup();
  });
  const api = async (method: 'GET' | 'POST', url: string, body?: object) => {
    const r = await app.inject({
      method,
      url: `/api/v1/projects/default${url}`,
      headers: { authorization: `Bearer ${admin}` },
      ...(body ? { payload: body } : {}),
    });
    return { status: r.statusCode, body: r.json() as any };
  };

  it('the full schemas break the strict rules, which is why --strict exists', async () => {
    const plain = (await api('GET', '/tools?format=openai')).body as Json[];
    expect(plain.filter((x) => violations('openai', x.function.parameters).length > 0).length).toBeGreaterThan(20);
    expect(plain.every((x) => x.function.strict === undefined)).toBe(true);
  });

  it('every tool, in both formats, is valid under the vendor strict rules and marked strict', async () => {
    const oa = (await api('GET', '/tools?format=openai&strict=true')).body as Json[];
    const an = (await api('GET', '/tools?format=anthropic&strict=true')).body as Json[];
    const mcp = (await api('GET', '/tools')).body as Json[];
    expect(oa.map((x) => x.function.name)).toEqual(mcp.map((x) => x.name));
    expect(an.map((x) => x.name)).toEqual(mcp.map((x) => x.name));
    for (const x of oa) {
      expect(x.function.strict).toBe(true);
      expect(x.function.parameters.type).toBe('object');
      expect(violations('openai', x.function.parameters), x.function.name).toEqual([]);
    }
    for (const x of an) {
      expect(x.strict).toBe(true);
      expect(violations('anthropic', x.input_schema), x.name).toEqual([]);
    }
    // What strict mode cannot say is kept in words for the model.
    const write = oa.find((x) => x.function.name === 'ws_write_file')!.function.parameters;
    expect(write.properties.path.description).toContain('not empty');
    expect(write.properties.mode).toMatchObject({ type: ['string', 'null'], enum: ['overwrite', 'append', null] });
    expect(write.properties.mode.description).toContain('default "overwrite"');
    expect((await api('GET', '/tools?format=mcp&strict=true')).status).toBe(400);
  });

  it('a strict client calling with nulls for the arguments it leaves out gets what the full schema means, still checked in full', async () => {
    const write = await api('POST', '/tools/ws_write_file/call', { arguments: { path: 'strict/a.md', content: 'one\n', mode: null, expected_version: null } });
    expect(write.body).toMatchObject({ refused: false, version: 1 });
    const append = await api('POST', '/tools/ws_write_file/call', {
      arguments: { path: 'strict/a.md', content: 'two\n', mode: 'append', expected_version: null },
    });
    expect(append.body).toMatchObject({ refused: false, version: 2 });
    const got = await app.inject({
      method: 'GET',
      url: '/api/v1/projects/default/files/content?path=strict%2Fa.md',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(got.body).toBe('one\ntwo\n');
    // The full schema still refuses what the strict one cannot express (an empty path), and a null for a required argument.
    const empty = await api('POST', '/tools/ws_write_file/call', { arguments: { path: '', content: 'x', mode: null, expected_version: null } });
    expect(empty.body.refused).toBe(true);
    const nullContent = await api('POST', '/tools/ws_write_file/call', {
      arguments: { path: 'strict/b.md', content: null, mode: null, expected_version: null },
    });
    expect(nullContent.body.refused).toBe(true);
  });
});
