import type { FieldProblem } from '../platform/validation.js';
import type { RowReading } from './upload-processors.js';
import type { ColumnMapping, FileMappings, ImportField, UploadFile } from './uploads.schema.js';

/**
 * Column mapping: which field of a category's importer each source column fills (a CSV or Excel
 * header, a JSON item's key). Detected from the headers (their key, label or a known alias, in
 * any case and punctuation), adjusted by the user per file; applied before rows reach the
 * importer, so an importer only ever sees its own field keys.
 */

export type MappableField = ImportField & { aliases: readonly string[] };

/** A header as compared: accents, case, spaces and punctuation set aside ("E-Mail" = "email"). */
export const normaliseHeader = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The field each column fills (null: none), every column named. A column naming a field's key or
 * label wins over one naming an alias; each field is filled from one column at most (the first
 * that names it), and fields in `taken` from none.
 */
export function detectMapping(
  fields: readonly MappableField[],
  columns: readonly string[],
  taken: ReadonlySet<string> = new Set(),
): ColumnMapping {
  const exact = new Map<string, string>();
  const alias = new Map<string, string>();
  for (const field of fields) {
    for (const name of [field.key, field.label]) {
      const normal = normaliseHeader(name);
      if (normal && !exact.has(normal)) exact.set(normal, field.key);
    }
  }
  for (const field of fields) {
    for (const name of field.aliases) {
      const normal = normaliseHeader(name);
      if (normal && !exact.has(normal) && !alias.has(normal)) alias.set(normal, field.key);
    }
  }
  const used = new Set(taken);
  const found = new Map<string, string>();
  for (const names of [exact, alias]) {
    for (const column of columns) {
      if (found.has(column)) continue;
      const target = names.get(normaliseHeader(column));
      if (target && !used.has(target)) {
        found.set(column, target);
        used.add(target);
      }
    }
  }
  return Object.fromEntries(columns.map((column) => [column, found.get(column) ?? null]));
}

/**
 * The mapping a file is read with: the user's choice for the columns it names (null ignores one),
 * the detected field for the others (never one the user already gave to another column).
 */
export function effectiveMapping(
  fields: readonly MappableField[],
  columns: readonly string[],
  saved: ColumnMapping | undefined,
): ColumnMapping {
  if (!saved) return detectMapping(fields, columns);
  const chosen = columns.filter((column) => column in saved);
  const taken = new Set(chosen.flatMap((column) => saved[column] ?? []));
  const detected = detectMapping(
    fields,
    columns.filter((column) => !(column in saved)),
    taken,
  );
  return Object.fromEntries(
    columns.map((column) => [column, column in saved ? (saved[column] ?? null) : detected[column]]),
  );
}

/** The required fields no column fills: every row would fail without them. */
export const missingRequired = (fields: readonly MappableField[], mapping: ColumnMapping) => {
  const filled = new Set(Object.values(mapping));
  return fields.filter((field) => field.required && !filled.has(field.key)).map(({ key }) => key);
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * A JSON item as columns: its keys, with a nested object's keys in its place (`"address": {
 * "city": ... }` gives a `city` column), unless the user mapped the nested object's own key.
 * Anything that is not an object is an item of no columns.
 */
export function jsonColumns(
  item: unknown,
  saved: ColumnMapping | undefined,
): Record<string, unknown> {
  if (!isPlainObject(item)) return {};
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (isPlainObject(value) && typeof saved?.[key] !== 'string') {
      for (const [inner, innerValue] of Object.entries(value)) {
        if (!(inner in flat)) flat[inner] = innerValue;
      }
    } else {
      flat[key] = value;
    }
  }
  return flat;
}

/** JSON items of ever new key sets (odd files) are mapped anew rather than remembered. */
const MAX_REMEMBERED_KEY_SETS = 64;

/**
 * How a file of a category with fields is read: each column renamed to its field, columns that
 * fill none left out (a CSV or Excel file's header decides once; a JSON item's keys, per key set).
 */
export function mappedReading(
  fields: readonly MappableField[],
  saved: ColumnMapping | undefined,
  jsonKey: string | null,
): RowReading {
  let lastHeaders: readonly string[] | undefined;
  let lastMapping: ColumnMapping = {};
  const byKeys = new Map<string, [string, string][]>();
  return {
    columnOf: (header, _index, headers) => {
      if (headers !== lastHeaders) {
        lastHeaders = headers;
        lastMapping = effectiveMapping(fields, headers, saved);
      }
      return lastMapping[header] ?? null;
    },
    jsonValues: (item) => {
      const flat = jsonColumns(item, saved);
      const keys = Object.keys(flat);
      const signature = keys.join('\u0000');
      let pairs = byKeys.get(signature);
      if (!pairs) {
        const mapping = effectiveMapping(fields, keys, saved);
        pairs = keys.flatMap((key): [string, string][] => {
          const target = mapping[key];
          return target ? [[key, target]] : [];
        });
        if (byKeys.size >= MAX_REMEMBERED_KEY_SETS) byKeys.clear();
        byKeys.set(signature, pairs);
      }
      const values: Record<string, unknown> = {};
      for (const [key, target] of pairs) values[target] = flat[key];
      return values;
    },
    jsonKey,
  };
}

/** The mapping chosen for a file, if any. */
export const savedMappingOf = (mappings: FileMappings | undefined, file: number) =>
  mappings?.find((entry) => entry.file === file)?.mapping;

/**
 * What is wrong with mappings sent for an upload: a file it does not have, a file given twice, a
 * target that is not one of the category's fields, or a field filled from two columns. Each
 * problem names the path of the value at fault (`mappings.0.mapping.E-mail`).
 */
export function mappingProblems(
  fields: readonly MappableField[],
  files: readonly Pick<UploadFile, 'index' | 'name'>[],
  mappings: FileMappings,
  field = 'mappings',
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (path: string, message: string) =>
    problems.push({ location: 'body', field: `${field}.${path}`, message });
  const keys = new Set(fields.map((candidate) => candidate.key));
  const seen = new Set<number>();
  mappings.forEach((entry, position) => {
    if (!files.some((file) => file.index === entry.file)) {
      problem(`${position}.file`, `this upload has no file ${entry.file}`);
    } else if (seen.has(entry.file)) {
      problem(`${position}.file`, `file ${entry.file} is mapped twice`);
    }
    seen.add(entry.file);
    const sources = new Map<string, string>();
    for (const [column, target] of Object.entries(entry.mapping)) {
      if (target === null) continue;
      if (!keys.has(target)) {
        problem(
          `${position}.mapping.${column}`,
          keys.size
            ? `${target} is not a field of this import; use one of: ${[...keys].join(', ')}`
            : `${target} is not a field: files of this category are stored, not imported`,
        );
        continue;
      }
      const other = sources.get(target);
      if (other !== undefined) {
        problem(`${position}.mapping.${column}`, `${target} is already filled from "${other}"`);
        continue;
      }
      sources.set(target, column);
    }
  });
  return problems;
}
