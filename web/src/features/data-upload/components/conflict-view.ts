import type { Conflict } from '@contracts/conflicts/conflicts.schema';
import { resolutionLabels, typeLabels } from '../api/conflicts';
import { formatWhen } from './upload-style';

/** What a cell shows for a field without a value. */
export const EMPTY_VALUE = '(empty)';

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A field's value as a person reads it: dates, yes/no, lists and addresses in words. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return EMPTY_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'string') {
    if (!value.trim()) return EMPTY_VALUE;
    return isoInstant.test(value) && !Number.isNaN(Date.parse(value)) ? formatWhen(value) : value;
  }
  if (Array.isArray(value)) {
    const parts = value.map(displayValue).filter((part) => part !== EMPTY_VALUE);
    return parts.length ? parts.join(', ') : EMPTY_VALUE;
  }
  if (typeof value === 'object') {
    // An address or a similar group of parts: its filled parts in their order.
    return displayValue(Object.values(value as Record<string, unknown>));
  }
  return String(value);
}

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** The name a record goes by: its title, name, case number, or a person's name or email. */
function titleOf(record: Record<string, unknown> | null): string | undefined {
  if (!record) return undefined;
  const person = [text(record.firstName), text(record.lastName)].filter(Boolean).join(' ');
  return (
    text(record.title) ??
    text(record.name) ??
    text(record.displayName) ??
    (person || undefined) ??
    text(record.caseNumber) ??
    text(record.email)
  );
}

/** The card's title: the record on file, or else the imported one. */
export function conflictTitle(conflict: Conflict): string {
  return (
    titleOf(conflict.existingRecord) ??
    titleOf(conflict.importedRecord) ??
    `${typeLabels[conflict.type]} ${conflict.existingId ?? ''}`.trim()
  );
}

/** The address of the record on file (bidder profile, auction, legal case); null when it is gone. */
export function recordLink(conflict: Pick<Conflict, 'type' | 'existingId'>): string | null {
  if (!conflict.existingId) return null;
  const id = encodeURIComponent(conflict.existingId);
  switch (conflict.type) {
    case 'bidder':
      return `/bidders?bidder=${id}`;
    case 'auction':
      return `/auctions/${id}`;
    case 'legal':
      return `/legal/cases/${id}`;
  }
}

/**
 * Where the conflict came from: its upload in the Processing History, the integrations, or (an
 * import through the API, kept by no upload) the bidders' duplicates.
 */
export function sourceLink(conflict: Pick<Conflict, 'source' | 'uploadName'>): string {
  switch (conflict.source.kind) {
    case 'upload':
      return `/data-upload?q=${encodeURIComponent(conflict.uploadName)}`;
    case 'sync':
      return '/settings/integrations';
    case 'import':
      return '/bidders/duplicates';
  }
}

/** The match score's colour, as the bidders' Duplicates tab shows a confidence. */
export function matchColour(score: number): 'success' | 'warning' | 'severe' | 'danger' {
  if (score >= 95) return 'success';
  if (score >= 85) return 'warning';
  if (score >= 75) return 'severe';
  return 'danger';
}

/** The side whose value the record kept for a field, once the conflict is resolved. */
export function keptSide(conflict: Conflict, field: string): 'existing' | 'imported' | null {
  if (conflict.status !== 'resolved') return null;
  switch (conflict.resolution) {
    case 'keep_existing':
      return 'existing';
    case 'use_imported':
      return 'imported';
    case 'merge':
      return conflict.choices?.[field] ?? 'existing';
    default:
      return null;
  }
}

/**
 * "Merged by Dana Whitfield on Nov 25, 2026, 8:12 AM. Merged B-1042 into B-0007, with the values
 * chosen." for a conflict that is no longer pending: who decided, when, and what it did.
 */
export function outcomeOf(conflict: Conflict): string | null {
  if (conflict.status === 'pending') return null;
  const what =
    conflict.status === 'skipped'
      ? 'Skipped'
      : conflict.resolution
        ? resolutionLabels[conflict.resolution]
        : 'Resolved';
  const who = conflict.resolvedBy ? ` by ${conflict.resolvedBy.name}` : '';
  const when = conflict.resolvedAt ? ` on ${formatWhen(conflict.resolvedAt)}` : '';
  const note = conflict.note?.trim().replace(/\.$/, '');
  return note ? `${what}${who}${when}. ${note}.` : `${what}${who}${when}`;
}

/** Each differing field set to the value on file: where a merge starts, as in the bidders' merge. */
export const defaultChoices = (conflict: Conflict): Record<string, 'existing' | 'imported'> =>
  Object.fromEntries(conflict.fields.map((field) => [field.field, 'existing' as const]));
