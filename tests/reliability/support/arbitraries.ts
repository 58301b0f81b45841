import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries made from a route's zod contract: through its JSON Schema (the input
 * side, as the API description shows it) for values that look right, mutations of those that are
 * wrong in one place, and junk that is not even the right shape.
 */

export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  prefixItems?: SchemaNode[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
}

export function schemaOf(schema: z.ZodType): SchemaNode {
  return z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as SchemaNode;
}

const MAX_STRING = 40;

/**
 * Strings that have broken services before: characters a store or a URL treats specially, blank
 * ones, look-alikes of code and queries, control characters, odd unicode, the very long.
 */
export const oddText: fc.Arbitrary<string> = fc.constantFrom(
  'a/b',
  'x#y',
  'a\\b',
  'a?b',
  ' ',
  '..',
  '.',
  '%',
  '%00',
  '\u0000',
  '\r\n',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e999',
  "' OR 1=1 --",
  'SELECT * FROM c',
  '${jndi:x}',
  '<script>',
  '\u202e\u0301\ufeff',
  '😀',
  'a'.repeat(300),
);

/** Path parameter values that probe the edges: odd strings, random unicode, look-alike ids. */
export const oddSegment: fc.Arbitrary<string> = fc.oneof(
  oddText,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
  fc.uuid(),
);
const MAX_ITEMS = 4;

interface Context {
  root: SchemaNode;
  depth: number;
}

function resolve(node: SchemaNode, context: Context): SchemaNode {
  if (!node.$ref) return node;
  if (node.$ref === '#') return context.root;
  const name = node.$ref.replace(/^#\/\$defs\//, '');
  const found = context.root.$defs?.[name];
  if (!found) throw new Error(`unresolvable $ref ${node.$ref}`);
  return found;
}

const typesOf = (node: SchemaNode): string[] =>
  node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];

const isObjectNode = (node: SchemaNode) =>
  typesOf(node).includes('object') || node.properties !== undefined;

/** Strings that pass the common field rules, so generated bodies get past validation often. */
function likelyString(name: string): fc.Arbitrary<string> | undefined {
  if (/email/i.test(name)) {
    return fc
      .tuple(
        fc.stringMatching(/^[a-z][a-z0-9]{2,10}$/),
        fc.constantFrom('example.com', 'mail.test'),
      )
      .map(([local, domain]) => `${local}@${domain}`);
  }
  if (/phone/i.test(name)) return fc.stringMatching(/^\+1\d{10}$/);
  if (/password/i.test(name)) return fc.stringMatching(/^[A-Z][a-z]{5}-[0-9]{3}-[a-z]{4}!$/);
  if (/website|url/i.test(name)) return fc.webUrl();
  if (/timezone/i.test(name)) return fc.constantFrom('America/New_York', 'Europe/London');
  return undefined;
}

function patternString(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    // fast-check reads most patterns; lookarounds and the like fall back to plain strings.
    return undefined;
  }
}

function stringArbitrary(node: SchemaNode, name: string): fc.Arbitrary<string> {
  const minLength = node.minLength ?? 0;
  const maxLength = Math.min(node.maxLength ?? MAX_STRING, minLength + MAX_STRING);
  const byFormat: Record<string, () => fc.Arbitrary<string>> = {
    email: () => likelyString('email') as fc.Arbitrary<string>,
    uri: () => fc.webUrl(),
    url: () => fc.webUrl(),
    uuid: () => fc.uuid(),
    'date-time': () =>
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString()),
    date: () =>
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10)),
  };
  const formatted = node.format ? byFormat[node.format]?.() : undefined;
  const patterned = node.pattern ? patternString(node.pattern) : undefined;
  const plain = fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }), weight: 3 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
  );
  const likely = formatted ?? patterned ?? likelyString(name);
  return likely
    ? fc.oneof(
        { arbitrary: likely, weight: 6 },
        { arbitrary: plain, weight: 1 },
        { arbitrary: oddText, weight: 1 },
      )
    : fc.oneof({ arbitrary: plain, weight: 6 }, { arbitrary: oddText, weight: 1 });
}

function numberArbitrary(node: SchemaNode, integer: boolean): fc.Arbitrary<number> {
  const low =
    node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
  const high =
    node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : undefined);
  const min = low ?? (high !== undefined ? high - 1000 : -1000);
  const max = high ?? min + 1000;
  const near = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  if (low !== undefined || high !== undefined) return near;
  // Nothing bounds it: mostly ordinary values, sometimes anything a double can hold.
  const any = integer ? fc.maxSafeInteger() : fc.double({ noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ arbitrary: near, weight: 4 }, { arbitrary: any, weight: 1 });
}

/**
 * A `confirmX` field repeats `x` or `newX` (a password typed twice): a rule JSON Schema cannot
 * say, without which no generated sign-up or reset would ever be valid.
 */
function withConfirmations(value: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...value };
  for (const key of Object.keys(copy)) {
    const field = /^confirm([A-Z]\w*)$/.exec(key)?.[1];
    if (!field) continue;
    const source = [`new${field}`, `${field[0]?.toLowerCase()}${field.slice(1)}`].find(
      (name) => typeof copy[name] === 'string',
    );
    if (source) copy[key] = copy[source];
  }
  return copy;
}

function objectArbitrary(
  node: SchemaNode,
  context: Context,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = node.properties ?? {};
  const required = new Set(node.required ?? []);
  const record = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, valueArbitrary(child, context, key)]),
    ),
    { requiredKeys: [...required].filter((key) => key in properties) },
  );
  const extra = node.additionalProperties;
  if (typeof extra !== 'object' || Object.keys(properties).length > 0) {
    return record.map(withConfirmations);
  }
  const keys = node.propertyNames
    ? (valueArbitrary(node.propertyNames, context, 'key') as fc.Arbitrary<string>)
    : fc.string({ minLength: 1, maxLength: 12 });
  return fc.dictionary(keys, valueArbitrary(extra, context, 'value'), { maxKeys: 3 });
}

/** Values that satisfy the schema as JSON Schema sees it (refinements are zod's business). */
export function valueArbitrary(
  input: SchemaNode | boolean,
  context: Context,
  name = '',
): fc.Arbitrary<unknown> {
  if (typeof input === 'boolean') return fc.jsonValue({ maxDepth: 2 });
  const node = resolve(input, context);
  const inner = { root: context.root, depth: context.depth + 1 };
  if (context.depth > 8) return fc.constant(null);
  if ('const' in node) return fc.constant(node.const);
  if (node.enum) return fc.constantFrom(...node.enum);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => valueArbitrary(alt, inner, name)));
  if (node.allOf?.[0]) return valueArbitrary(node.allOf[0], inner, name);
  const types = typesOf(node);
  if (types.length === 0) {
    return node.properties ? objectArbitrary(node, inner) : fc.jsonValue({ maxDepth: 2 });
  }
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArbitrary(node, name);
        case 'integer':
          return numberArbitrary(node, true);
        case 'number':
          return numberArbitrary(node, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          if (node.prefixItems) {
            return fc.tuple(...node.prefixItems.map((item) => valueArbitrary(item, inner, name)));
          }
          return fc.array(node.items ? valueArbitrary(node.items, inner, name) : fc.jsonValue(), {
            minLength: node.minItems ?? 0,
            maxLength: Math.max(
              node.minItems ?? 0,
              Math.min(node.maxItems ?? MAX_ITEMS, MAX_ITEMS),
            ),
          });
        case 'object':
          return objectArbitrary(node, inner);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

/** A value of the wrong kind for the node: what a confused or hostile client sends instead. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 10 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);

/** A value just outside what the node allows, when the node says where its edges are. */
function outOfRange(input: SchemaNode, context: Context): unknown[] {
  const node = resolve(input, context);
  const types = typesOf(node);
  const values: unknown[] = [];
  if (node.maxLength !== undefined) values.push('x'.repeat(node.maxLength + 1));
  if ((node.minLength ?? 0) > 0) values.push('');
  if (node.maximum !== undefined) values.push(node.maximum + 1, Number.MAX_SAFE_INTEGER * 4);
  if (node.minimum !== undefined) values.push(node.minimum - 1, -Number.MAX_SAFE_INTEGER * 4);
  if (types.includes('integer')) values.push(0.5, 1e21);
  if (node.enum || 'const' in node) values.push('not-one-of-these', '');
  if (node.maxItems !== undefined)
    values.push(Array.from({ length: node.maxItems + 1 }, () => 'x'));
  if (node.pattern || node.format) values.push('not valid here', ' ');
  return values;
}

/**
 * A valid-looking value made wrong in one place: a required key dropped, one key of the wrong
 * type or just out of range, reaching into nested objects.
 */
export function mutatedArbitrary(input: SchemaNode, context: Context): fc.Arbitrary<unknown> {
  const node = resolve(input, context);
  const valid = valueArbitrary(node, context);
  const properties = Object.entries(node.properties ?? {});
  if (!isObjectNode(node) || properties.length === 0) {
    const edges = outOfRange(node, context);
    return edges.length ? fc.oneof(fc.constantFrom(...edges), wrongType) : wrongType;
  }
  const inner = { root: context.root, depth: context.depth + 1 };
  return fc
    .tuple(
      valid,
      fc.constantFrom(...properties),
      fc.constantFrom('drop', 'wrong-type', 'edge', 'nested'),
      wrongType,
      fc.nat(),
    )
    .chain(([value, [key, child], how, wrong, pick]) => {
      const base = typeof value === 'object' && value !== null ? { ...value } : {};
      const replaced = (next: unknown) => fc.constant({ ...base, [key]: next });
      if (how === 'drop') {
        const { [key]: _dropped, ...rest } = base as Record<string, unknown>;
        return fc.constant(rest);
      }
      if (how === 'edge') {
        const edges = outOfRange(child, inner);
        return replaced(edges.length ? edges[pick % edges.length] : wrong);
      }
      if (how === 'nested' && isObjectNode(resolve(child, inner))) {
        return mutatedArbitrary(child, inner).map((next) => ({ ...base, [key]: next }));
      }
      return replaced(wrong);
    });
}

export const rootContext = (root: SchemaNode): Context => ({ root, depth: 0 });

/** Distinct values of a zod schema's JSON Schema that `accept` keeps. */
export function schemaSamples(
  schema: z.ZodType,
  count: number,
  seed: number,
  accept: (value: unknown) => boolean = () => true,
): unknown[] {
  const root = schemaOf(schema);
  const found = new Map<string, unknown>();
  const arbitrary = valueArbitrary(root, rootContext(root));
  for (let round = 0; round < 50 && found.size < count; round += 1) {
    for (const value of fc.sample(arbitrary, { numRuns: count * 4, seed: seed + round })) {
      if (found.size >= count) break;
      if (accept(value)) found.set(JSON.stringify(value), value);
    }
  }
  return [...found.values()];
}

/** Valid values of a zod schema: generated from its JSON Schema, kept when zod agrees. */
export function validSamples(
  schema: z.ZodType,
  count: number,
  seed: number,
  accept: (value: unknown) => boolean = () => true,
): unknown[] {
  return schemaSamples(
    schema,
    count,
    seed,
    (value) => schema.safeParse(value).success && accept(value),
  );
}

/** One valid value of a zod schema; a schema nothing valid is found for fails the test. */
export function validSample(schema: z.ZodType, seed: number): unknown {
  const [found] = validSamples(schema, 1, seed);
  if (found === undefined) {
    throw new Error(`no valid value found for ${JSON.stringify(schemaOf(schema)).slice(0, 300)}`);
  }
  return found;
}

const deeplyNested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies that are not what any route wants: any JSON, odd unicode, huge numbers, deep nesting. */
export const junkJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    -1e308,
    2 ** 53 + 1,
    '',
    ' ',
    '\u0000',
    '\u202e\u0301\ufeff',
    '😀'.repeat(50),
    [],
    {},
    { constructor: { prototype: { polluted: true } } },
  ),
  fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), {
    maxKeys: 5,
  }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
);

/** Bodies that are not JSON, or are JSON a parser might choke on. */
export const rawJunk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[',
    'nul',
    '{"a":1e999}',
    '123456789012345678901234567890123456789',
    '"\\ud800"',
    '{"__proto__":{"polluted":true}}',
    '\u0000\u0001',
    deeplyNested(10_000),
    `{"a":${deeplyNested(2_000)}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Authorization headers that are not a valid token. */
export const badAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }).map((junk) => `Bearer ${junk}`),
);
