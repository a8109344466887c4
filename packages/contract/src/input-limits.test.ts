import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { routeTables } from './routes/all.js';
import type { RouteDef } from './route.js';
import { limitSettings, type Limits } from './limits.js';
import { toolInputSchemas } from './tools/index.js';
import { docsToolSchemas } from './tools/docs.js';
import { memoryToolSchemas } from './tools/memory.js';
import { wikiToolSchemas } from './tools/wiki.js';

/** Where a schema accepts a string without a maximum length, as dotted paths from its root. */
function unboundedStrings(schema: z.ZodType, at: string, out: string[], seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = (schema as any)._zod.def;
  switch (def.type) {
    case 'string':
      if (typeof (schema as z.ZodString).maxLength !== 'number') out.push(at);
      break;
    case 'object':
      for (const [k, v] of Object.entries(def.shape)) unboundedStrings(v as z.ZodType, `${at}.${k}`, out, seen);
      if (def.catchall) unboundedStrings(def.catchall, `${at}.*`, out, seen);
      break;
    case 'array':
      unboundedStrings(def.element, `${at}[]`, out, seen);
      break;
    case 'record':
      unboundedStrings(def.keyType, `${at}{key}`, out, seen);
      unboundedStrings(def.valueType, `${at}{}`, out, seen);
      break;
    case 'union':
      for (const o of def.options) unboundedStrings(o, at, out, seen);
      break;
    case 'intersection':
      unboundedStrings(def.left, at, out, seen);
      unboundedStrings(def.right, at, out, seen);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      unboundedStrings(def.innerType, at, out, seen);
      break;
    case 'pipe':
      unboundedStrings(def.in, at, out, seen);
      break;
    case 'lazy':
      unboundedStrings(def.getter(), at, out, seen);
      break;
    case 'tuple':
      def.items.forEach((s: z.ZodType, i: number) => unboundedStrings(s, `${at}[${i}]`, out, seen));
      break;
    default:
      break;
  }
  return out;
}

const defaults = Object.fromEntries(Object.entries(limitSettings).map(([k, v]) => [k, v.default])) as Limits;

describe('every string the contract accepts has a maximum length (issue 27)', () => {
  it('holds for the input of every route', () => {
    const open: string[] = [];
    for (const table of Object.values(routeTables)) for (const r of Object.values(table) as RouteDef[]) unboundedStrings(r.input, r.id, open);
    expect(open).toEqual([]);
  });

  it('holds for the arguments of every agent tool', () => {
    const open: string[] = [];
    const all = { ...toolInputSchemas(defaults), ...docsToolSchemas, ...memoryToolSchemas, ...wikiToolSchemas };
    for (const [name, schema] of Object.entries(all)) unboundedStrings(schema as z.ZodType, name, open);
    expect(open).toEqual([]);
  });

  it('finds a string without a maximum, so the rule cannot pass by walking nothing', async () => {
    const { z } = await import('zod');
    expect(unboundedStrings(z.object({ a: z.string().max(3), b: z.array(z.string()).optional() }), 'x', [])).toEqual(['x.b[]']);
  });
});
