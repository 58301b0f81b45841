/**
 * Azure Functions (ASP.NET Core) route templates: `{id}`, `{id?}`, `{*rest}`, `{id:int}`; literal
 * segments match case-insensitively and a more specific template wins over a less specific one.
 */

type Constraint = (value: string) => boolean;

const constraints: Record<string, Constraint> = {
  int: (value) => /^-?\d+$/.test(value),
  long: (value) => /^-?\d+$/.test(value),
  bool: (value) => /^(true|false)$/i.test(value),
  alpha: (value) => /^[A-Za-z]+$/.test(value),
  guid: (value) =>
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(value),
};

type Segment =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; name: string; optional: boolean; constraint?: Constraint }
  | { kind: 'catchAll'; name: string };

export interface CompiledTemplate {
  template: string;
  segments: Segment[];
  /** Higher sorts first: per segment, literal > constrained > parameter > optional > catch-all. */
  precedence: number[];
}

function parseSegment(raw: string, template: string): Segment {
  const match = /^\{(\*)?([A-Za-z_][A-Za-z0-9_]*)(?::([a-z]+))?(\?)?\}$/.exec(raw);
  if (!match) {
    if (raw.includes('{') || raw.includes('}')) {
      throw new Error(`Unsupported route segment "${raw}" in "${template}"`);
    }
    return { kind: 'literal', text: raw.toLowerCase() };
  }
  const [, star, name, constraintName, optional] = match as unknown as [
    string,
    string | undefined,
    string,
    string | undefined,
    string | undefined,
  ];
  if (star) return { kind: 'catchAll', name };
  const constraint = constraintName ? constraints[constraintName] : undefined;
  if (constraintName && !constraint) {
    throw new Error(`Unknown route constraint "${constraintName}" in "${template}"`);
  }
  return {
    kind: 'param',
    name,
    optional: Boolean(optional),
    ...(constraint ? { constraint } : {}),
  };
}

function weight(segment: Segment): number {
  if (segment.kind === 'literal') return 4;
  if (segment.kind === 'catchAll') return 0;
  if (segment.optional) return 1;
  return segment.constraint ? 3 : 2;
}

export function compileTemplate(template: string): CompiledTemplate {
  const parts = template.split('/').filter((part) => part !== '');
  const segments = parts.map((part) => parseSegment(part, template));
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment.kind === 'catchAll' && !last) {
      throw new Error(`A catch-all must be the last segment in "${template}"`);
    }
    if (segment.kind === 'param' && segment.optional && !last) {
      throw new Error(`An optional parameter must be the last segment in "${template}"`);
    }
  });
  return { template, segments, precedence: segments.map(weight) };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route values when `path` (no query, no leading prefix) fits the template, else undefined. */
export function matchTemplate(
  compiled: CompiledTemplate,
  path: string,
): Record<string, string> | undefined {
  const parts = path.split('/').filter((part) => part !== '');
  const params: Record<string, string> = {};
  const { segments } = compiled;
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as Segment;
    const part = parts[index];
    if (segment.kind === 'catchAll') {
      const rest = parts.slice(index).map(decode);
      if (rest.some((value) => value === undefined)) return undefined;
      if (rest.length) params[segment.name] = rest.join('/');
      return params;
    }
    if (part === undefined) {
      return segment.kind === 'param' && segment.optional ? params : undefined;
    }
    const value = decode(part);
    if (value === undefined) return undefined;
    if (segment.kind === 'literal') {
      if (value.toLowerCase() !== segment.text) return undefined;
    } else {
      if (segment.constraint && !segment.constraint(value)) return undefined;
      params[segment.name] = value;
    }
  }
  return parts.length === segments.length ? params : undefined;
}

/** Orders templates so the first that matches is the one Functions would pick. */
export function byPrecedence(a: CompiledTemplate, b: CompiledTemplate): number {
  const length = Math.max(a.precedence.length, b.precedence.length);
  for (let index = 0; index < length; index += 1) {
    // Two templates of different lengths match the same path only through a trailing optional or
    // catch-all segment; the one without it is the more specific.
    const left = a.precedence[index] ?? 5;
    const right = b.precedence[index] ?? 5;
    if (left !== right) return right - left;
  }
  return 0;
}

export interface RouteMatch<T> {
  entry: T;
  params: Record<string, string>;
}

/** A table of templates matched in precedence order. */
export class RouteTable<T extends { route: string }> {
  private readonly compiled: { entry: T; template: CompiledTemplate }[];

  constructor(entries: T[]) {
    this.compiled = entries
      .map((entry) => ({ entry, template: compileTemplate(entry.route) }))
      .sort((a, b) => byPrecedence(a.template, b.template));
  }

  /** Every entry whose template matches, most specific first. */
  matchAll(path: string): RouteMatch<T>[] {
    const matches: RouteMatch<T>[] = [];
    for (const { entry, template } of this.compiled) {
      const params = matchTemplate(template, path);
      if (params) matches.push({ entry, params });
    }
    return matches;
  }
}
