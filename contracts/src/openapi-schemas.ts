// Shared schemas of the OpenAPI document: zod's JSON Schema output keeps recursive (and meta-id) schemas in a `$defs`
// block of each converted schema, with refs like `#/$defs/__schema0` or `#` that no longer resolve once the schema is
// embedded in an operation. Every converted schema goes through `SharedSchemas.place`, which moves its `$defs` (and a
// recursive root) to `components/schemas` under document-wide names and rewrites the refs to point there.

type Json = Record<string, unknown>;

/** zod's generated names for unnamed shared schemas (`__schema0`, …); named ones come from `.meta({ id })`. */
const GENERATED_NAME = /^__schema\d+$/;
const ROOT = '#';
const DEFS = '#/$defs/';

/** FNV-1a, 32 bits: a short stable suffix that keeps a name the same while the schema behind it is the same. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/** Deep copy of a JSON Schema with every local `$ref` rewritten by `target` (`#` or `#/$defs/<local>`). */
function rewriteRefs(node: unknown, target: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, target));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === '$ref' && typeof value === 'string' ? target(value) : rewriteRefs(value, target);
  }
  return out;
}

function refersToRoot(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(refersToRoot);
  if (node === null || typeof node !== 'object') return false;
  return Object.entries(node as Json).some(([key, value]) => (key === '$ref' ? value === ROOT : refersToRoot(value)));
}

export class SharedSchemas {
  /** what goes to `components/schemas` */
  readonly components: Record<string, Json> = {};
  /** identity of a shared schema (its whole `$defs` group plus its local name) → its document-wide name */
  private readonly names = new Map<string, string>();

  /**
   * Returns `schema` (one zod toJSONSchema output) without `$defs`, its refs pointing into `components/schemas`.
   * A recursive root (refs to `#`) stays inline, so callers can still read its properties; its self-refs point to a
   * component copy of it.
   */
  place(schema: Json): Json {
    const { $defs, $schema: _dialect, ...root } = schema as Json & { $defs?: Record<string, Json> };
    const defs = $defs ?? {};
    // Local names only mean something inside one conversion: a shared schema is identified by its whole group.
    const group = JSON.stringify(defs);
    const global = new Map<string, string>();
    for (const local of Object.keys(defs)) global.set(local, this.nameFor(local, group));
    const recursiveRoot = refersToRoot(root);
    if (recursiveRoot) global.set(ROOT, this.nameFor(ROOT, `${group}\u0000${JSON.stringify(root)}`));

    const target = (ref: string): string => {
      const local = ref === ROOT ? ROOT : ref.startsWith(DEFS) ? ref.slice(DEFS.length) : undefined;
      const name = local === undefined ? undefined : global.get(local);
      return name === undefined ? ref : componentRef(name);
    };
    for (const [local, def] of Object.entries(defs))
      this.components[global.get(local)!] ??= rewriteRefs(def, target) as Json;
    const placed = rewriteRefs(root, target) as Json;
    if (recursiveRoot) this.components[global.get(ROOT)!] ??= placed;
    return placed;
  }

  private nameFor(local: string, group: string): string {
    const identity = `${group}\u0000${local}`;
    const known = this.names.get(identity);
    if (known) return known;
    const suffix = fingerprint(identity);
    // Component names allow only [A-Za-z0-9._-]; a meta id keeps its readable name unless another schema has it.
    const base =
      local === ROOT || GENERATED_NAME.test(local) ? `Schema_${suffix}` : local.replace(/[^A-Za-z0-9._-]/g, '_');
    const taken = new Set(this.names.values());
    let name = taken.has(base) ? `${base}_${suffix}` : base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${suffix}_${n}`;
    this.names.set(identity, name);
    return name;
  }
}
