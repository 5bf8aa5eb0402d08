import * as z from 'zod';

/** Zod schemas to JSON Schema components for the OpenAPI document (lib/http/openapi.ts). */

type Json = Record<string, unknown>;
export type Io = 'input' | 'output';

/** Where the document's components live. */
export const REF_PREFIX = '#/components/schemas/';

/** Replaces every `$ref` string in a JSON value (a deep copy; the input stays untouched). */
function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? rewrite(v) : mapRefs(v, rewrite)]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Marks a ref until the final component names are known: `#/$defs/<io>/<id>`. */
const PENDING = /^#\/\$defs\/(input|output)\/(.+)$/;
const unmark = (ref: string) => ref.replace(PENDING, '#/$defs/$2');

/**
 * Converts zod schemas into JSON Schema 2020-12 (OpenAPI 3.1's dialect) and gathers every schema that has
 * a `.meta({ id })` into one components map. Request parts are converted as input (defaults make fields
 * optional), responses as output. When a named schema differs between the two, the input form is
 * published as `<id>Input`.
 */
export class SchemaCollector {
  private readonly defs: Record<Io, Map<string, Json>> = { input: new Map(), output: new Map() };

  /** The schema, its named parts replaced by pending refs that {@link finish} resolves. */
  convert(schema: z.ZodType, io: Io): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // A refinement or transform never makes the wire shape unrepresentable; fall back to "any" for it.
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        // zod bounds every int by the safe-integer range; that is noise to a reader and to client generators.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    }) as Json;
    const { $schema: _dialect, $defs, ...rest } = json;
    const mark = (ref: string) => {
      if (!ref.startsWith('#/$defs/')) throw new Error(`Unexpected $ref ${ref} in a generated schema`);
      return `#/$defs/${io}/${ref.slice('#/$defs/'.length)}`;
    };
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const marked = mapRefs(def, mark) as Json;
      const known = this.defs[io].get(id);
      if (known && !sameJson(known, marked)) throw new Error(`Two different schemas share the id "${id}" (${io})`);
      this.defs[io].set(id, marked);
    }
    return mapRefs(rest, mark) as Json;
  }

  /**
   * Names the collected schemas, adds `extra` (hand-made components), and resolves every pending ref in
   * `document`. Returns the rewritten document and components/schemas.
   */
  finish<T>(document: T, extra: Record<string, Json>): { document: T; schemas: Record<string, Json> } {
    const names: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };
    for (const id of this.defs.output.keys()) names.output.set(id, id);
    for (const [id, def] of this.defs.input) {
      const out = this.defs.output.get(id);
      const differs = out !== undefined && !sameJson(mapRefs(out, unmark), mapRefs(def, unmark));
      names.input.set(id, differs ? `${id}Input` : id);
    }
    const resolve = (ref: string) => {
      const m = PENDING.exec(ref);
      if (!m) return ref;
      const name = names[m[1] as Io].get(m[2]!);
      if (name === undefined) throw new Error(`Unresolvable $ref ${ref}`);
      return `${REF_PREFIX}${name}`;
    };
    const schemas: Record<string, Json> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of this.defs[io]) schemas[names[io].get(id)!] = mapRefs(def, resolve) as Json;
    }
    for (const [name, def] of Object.entries(extra)) {
      if (schemas[name]) throw new Error(`The component name "${name}" is taken by a domain schema`);
      schemas[name] = mapRefs(def, resolve) as Json;
    }
    return {
      document: mapRefs(document, resolve) as T,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    };
  }
}
