import {
  MAX_UPLOAD_TOTAL_BYTES,
  UPLOAD_MESSAGES,
  type UploadCategory,
} from '@contracts/uploads/uploads.schema';

/** The New Upload form's state (spec 5). */
export interface UploadDraft {
  name: string;
  category: UploadCategory | '';
  description: string;
  files: File[];
}

export const emptyDraft: UploadDraft = { name: '', category: '', description: '', files: [] };

export const totalBytes = (files: readonly { size: number }[]) =>
  files.reduce((sum, file) => sum + file.size, 0);

/** The button is off without a name, a category or files (the description is checked on click). */
export const canSubmit = (draft: UploadDraft) =>
  Boolean(draft.name.trim() && draft.category && draft.files.length);

/** Why the form cannot be sent, in the spec's words, or null when it can. */
export function draftProblem(draft: UploadDraft): string | null {
  if (!canSubmit(draft) || !draft.description.trim()) return UPLOAD_MESSAGES.missingFields;
  if (totalBytes(draft.files) > MAX_UPLOAD_TOTAL_BYTES) return UPLOAD_MESSAGES.tooLarge;
  return null;
}

/** Adds newly chosen files to the list; a file chosen again (same name and size) is kept once. */
export function withFiles(current: File[], added: Iterable<File>): File[] {
  const next = [...current];
  for (const file of added) {
    if (!next.some((kept) => kept.name === file.name && kept.size === file.size)) next.push(file);
  }
  return next;
}

/** A size as people read it: "812 B", "14 KB", "3.2 MB". */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
