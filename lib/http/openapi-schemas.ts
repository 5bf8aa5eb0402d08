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
    Object.entries(value).map(([k, v]) => {
      if (k === '$ref' && typeof v === 'string') return [k, rewrite(v)];
      // A discriminator's mapping names its members by ref too.
      if (k === 'mapping' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        return [k, Object.fromEntries(Object.entries(v).map(([tag, ref]) => [tag, typeof ref === 'string' ? rewrite(ref) : ref]))];
      }
      return [k, mapRefs(v, rewrite)];
    }),
  );
}

/**
 * A discriminated union becomes `oneOf` with an OpenAPI `discriminator` whose mapping names each member by
 * its tag, so a generated client narrows the union on that field (every member must be a named schema).
 */
function discriminate(zodSchema: unknown, jsonSchema: Record<string, unknown>): void {
  if (!(zodSchema instanceof z.ZodDiscriminatedUnion)) return;
  const propertyName = zodSchema._zod.def.discriminator;
  const members = (jsonSchema.anyOf ?? jsonSchema.oneOf) as Json[] | undefined;
  if (!members) return;
  const mapping: Record<string, string> = {};
  const options = zodSchema._zod.def.options;
  for (const [i, option] of options.entries()) {
    const tag = (option as z.ZodObject).shape[propertyName] as z.ZodType | undefined;
    const ref = members[i]?.$ref;
    // Inline members (small unions such as a DTMF shortcut's action) stay a plain anyOf: a mapping needs names.
    if (!(tag instanceof z.ZodLiteral) || typeof ref !== 'string') return;
    mapping[String(tag.value)] = ref;
  }
  delete jsonSchema.anyOf;
  jsonSchema.oneOf = members;
  jsonSchema.discriminator = { propertyName, mapping };
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

  /**
   * The schema, its named parts replaced by pending refs that {@link finish} resolves. In a request body
   * (`input`, unless `keepDefaults`: query parameters) a field's `default` is said in its description
   * instead: client generators (openapi-typescript) read `default` as "always present" and would make the
   * caller send it.
   */
  convert(schema: z.ZodType, io: Io, { keepDefaults = false }: { keepDefaults?: boolean } = {}): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // A refinement or transform never makes the wire shape unrepresentable; fall back to "any" for it.
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        // zod bounds every int by the safe-integer range; that is noise to a reader and to client generators.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (io === 'input' && !keepDefaults && 'default' in jsonSchema) {
          const said = `Default: \`${JSON.stringify(jsonSchema.default)}\`.`;
          jsonSchema.description = typeof jsonSchema.description === 'string' ? `${jsonSchema.description} ${said}` : said;
          delete jsonSchema.default;
        }
        discriminate(zodSchema, jsonSchema);
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
