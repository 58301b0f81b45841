import {
  documentExtensions,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_NAME,
  type DocumentType,
} from '@contracts/legal/documents/documents.schema';

/** "512 B", "14 KB", "3.2 MB": a file's size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const megabytes = bytes / (1024 * 1024);
  return `${megabytes < 10 ? megabytes.toFixed(1) : Math.round(megabytes)} MB`;
}

/** The name a document gets from its file: the file's name without its extension. */
export const nameFromFile = (fileName: string) => fileName.replace(/\.[^.]+$/, '') || fileName;

const extensionOf = (fileName: string) => /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';

/** The accepted extensions in words: "PDF, DOC, DOCX, JPG or PNG". */
const acceptedList = (() => {
  const names = documentExtensions.map((extension) => extension.toUpperCase());
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
})();

export interface UploadForm {
  file: { name: string; size: number } | null;
  name: string;
  type: DocumentType | '';
}

/** What is wrong with an upload before it is sent (spec 5: file, name and type; the formats). */
export function checkUpload(form: UploadForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.file) errors.file = 'File is required';
  else if (!(documentExtensions as readonly string[]).includes(extensionOf(form.file.name))) {
    errors.file = `Choose a ${acceptedList} file`;
  } else if (form.file.size > MAX_DOCUMENT_BYTES) {
    errors.file = `A document must be ${formatBytes(MAX_DOCUMENT_BYTES)} or smaller`;
  } else if (form.file.size === 0) errors.file = 'This file is empty';
  if (!form.name.trim()) errors.name = 'Name is required';
  else if (form.name.trim().length > MAX_DOCUMENT_NAME) {
    errors.name = `Name is longer than ${MAX_DOCUMENT_NAME} characters`;
  }
  if (!form.type) errors.type = 'Type is required';
  return errors;
}
