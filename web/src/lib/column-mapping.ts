import type {
  ColumnMapping,
  FileMappings,
  ImportField,
  UploadPreview,
} from '@contracts/uploads/uploads.schema';

/**
 * The column mapping of an upload before it is processed (issue 15): each tabular file's source
 * columns to the importer's fields, starting from the detected mapping, adjusted by the user.
 */

type FilePreview = UploadPreview['files'][number];

/** The mapping being edited, by file index. */
export type Mappings = Record<number, ColumnMapping>;

/** Files whose columns can be mapped (tabular, readable). */
export const mappableFiles = (preview: UploadPreview): FilePreview[] =>
  preview.files.filter((file) => file.columns.length > 0 && !file.problem);

/** The detected (or saved) mapping of each mappable file, every column listed (null: ignored). */
export function initialMappings(preview: UploadPreview): Mappings {
  const known = new Set(preview.fields.map((field) => field.key));
  return Object.fromEntries(
    mappableFiles(preview).map((file) => [
      file.index,
      Object.fromEntries(
        file.columns.map((column) => {
          const target = file.mapping[column] ?? null;
          return [column, target && known.has(target) ? target : null];
        }),
      ),
    ]),
  );
}

export interface MappingCheck {
  /** Required fields no column fills: every row would fail. */
  missing: ImportField[];
  /** Fields filled from more than one column, with those columns. */
  doubled: { field: ImportField; columns: string[] }[];
}

export function checkMapping(fields: readonly ImportField[], mapping: ColumnMapping): MappingCheck {
  const columnsOf = new Map<string, string[]>();
  for (const [column, target] of Object.entries(mapping)) {
    if (target) columnsOf.set(target, [...(columnsOf.get(target) ?? []), column]);
  }
  return {
    missing: fields.filter((field) => field.required && !columnsOf.has(field.key)),
    doubled: fields.flatMap((field) => {
      const columns = columnsOf.get(field.key) ?? [];
      return columns.length > 1 ? [{ field, columns }] : [];
    }),
  };
}

/** Whether every mappable file fills its required fields, each field from one column. */
export function mappingsReady(preview: UploadPreview, mappings: Mappings): boolean {
  return mappableFiles(preview).every((file) => {
    const check = checkMapping(preview.fields, mappings[file.index] ?? file.mapping);
    return check.missing.length === 0 && check.doubled.length === 0;
  });
}

/** Whether a person should look before processing: a required field unmapped, or a file unread. */
export const previewNeedsAttention = (preview: UploadPreview): boolean =>
  preview.files.some((file) => file.problem !== null || file.missingRequired.length > 0);

/** The mappings as `complete` and `rerun` take them. */
export function toFileMappings(preview: UploadPreview, mappings: Mappings): FileMappings {
  return mappableFiles(preview).map((file) => ({
    file: file.index,
    mapping: mappings[file.index] ?? file.mapping,
  }));
}

/** A column's first non-empty values in the preview, to recognise it by. */
export function sampleValues(file: FilePreview, column: string, count = 3): string[] {
  const values: string[] = [];
  for (const row of file.rows) {
    const value = row[column]?.trim();
    if (value) values.push(value);
    if (values.length === count) break;
  }
  return values;
}
