import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SharedSchemas } from './openapi-schemas.js';

const convert = (type: z.ZodType) =>
  z.toJSONSchema(type, { io: 'output', unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as Record<
    string,
    unknown
  >;

const MenuItem = z.object({
  label: z.string(),
  get children(): z.ZodArray<typeof MenuItem> {
    return z.array(MenuItem);
  },
});

function refsOf(value: unknown): string[] {
  return (JSON.stringify(value).match(/"\$ref":"[^"]*"/g) ?? []).map((r) => r.slice(8, -1));
}

describe('SharedSchemas.place', () => {
  it('moves a recursive $defs entry to components and points every ref there', () => {
    const shared = new SharedSchemas();
    const placed = shared.place(convert(z.object({ navs: z.array(MenuItem), home: MenuItem })));
    expect(placed).not.toHaveProperty('$defs');
    expect(placed).not.toHaveProperty('$schema');
    const names = Object.keys(shared.components);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^Schema_[0-9a-f]{8}$/);
    for (const ref of [...refsOf(placed), ...refsOf(shared.components)])
      expect(ref).toBe(`#/components/schemas/${names[0]}`);
    expect(shared.components[names[0]!]).toMatchObject({ type: 'object', properties: { label: { type: 'string' } } });
  });

  it('shares one component between calls that convert the same recursive schema', () => {
    const shared = new SharedSchemas();
    shared.place(convert(z.object({ navs: z.array(MenuItem) })));
    shared.place(convert(z.object({ navs: z.array(MenuItem) })));
    expect(Object.keys(shared.components)).toHaveLength(1);
  });

  it('keeps different schemas that zod named alike (__schema0 in each conversion) apart', () => {
    const Folder = z.object({
      path: z.string(),
      get sub(): z.ZodOptional<typeof Folder> {
        return Folder.optional();
      },
    });
    const shared = new SharedSchemas();
    const menu = shared.place(convert(z.object({ x: MenuItem })));
    const folder = shared.place(convert(z.object({ x: Folder })));
    expect(Object.keys(shared.components)).toHaveLength(2);
    expect(refsOf(menu)).not.toEqual(refsOf(folder));
  });

  it('keeps a recursive root inline (its properties readable) with its self-refs pointing at a component copy', () => {
    const shared = new SharedSchemas();
    const placed = shared.place(convert(MenuItem));
    expect(placed).toMatchObject({ type: 'object', properties: { label: { type: 'string' } } });
    const [name] = Object.keys(shared.components);
    expect(refsOf(placed)).toEqual([`#/components/schemas/${name}`]);
    expect(refsOf(shared.components[name!])).toEqual([`#/components/schemas/${name}`]);
  });

  it('names a schema by its meta id, and a different schema with the same id apart from it', () => {
    const shared = new SharedSchemas();
    const a = z
      .object({
        n: z.number(),
        get more(): z.ZodArray<typeof a> {
          return z.array(a);
        },
      })
      .meta({ id: 'Node' });
    const b = z
      .object({
        s: z.string(),
        get more(): z.ZodArray<typeof b> {
          return z.array(b);
        },
      })
      .meta({ id: 'Node' });
    shared.place(convert(z.object({ a })));
    shared.place(convert(z.object({ b })));
    const names = Object.keys(shared.components);
    expect(names[0]).toBe('Node');
    expect(names[1]).toMatch(/^Node_[0-9a-f]{8}$/);
  });

  it('leaves a schema without shared parts as it was, less the dialect', () => {
    const shared = new SharedSchemas();
    expect(shared.place(convert(z.object({ id: z.string() })))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(shared.components).toEqual({});
  });
});
