import type { z } from 'zod';
import { preferredCategories } from '../../bidders/bidders.schema.js';
import { lotInputSchema, type LotInput } from './lots.schema.js';

/**
 * Rows of a catalogue file as lots: which column is which field (by its header, with the names
 * houses print), money in major units as written ("1,250.00") turned into minor units, and each
 * row checked by the lot contract, every problem named by the column it came from.
 */

export const catalogueColumns = [
  'lotNumber',
  'title',
  'description',
  'category',
  'estimateLow',
  'estimateHigh',
  'reserve',
  'consignorName',
  'consignorContact',
] as const;
export type CatalogueColumn = (typeof catalogueColumns)[number];

/** What each column is called in a file, besides its own name (case, spaces and signs ignored). */
const aliases: Record<CatalogueColumn, string[]> = {
  lotNumber: ['lot', 'lotno', 'lotnum', 'lotnumber', 'lotid', 'number', 'no'],
  title: ['lottitle', 'name', 'item', 'itemname', 'heading'],
  description: ['desc', 'details', 'lotdescription', 'itemdescription'],
  category: ['lotcategory', 'department'],
  estimateLow: ['lowestimate', 'estlow', 'lowest', 'low', 'estimatemin', 'minestimate'],
  estimateHigh: ['highestimate', 'esthigh', 'highest', 'high', 'estimatemax', 'maxestimate'],
  reserve: ['reserveprice', 'res'],
  consignorName: ['consignor', 'consignedby', 'seller', 'vendor'],
  consignorContact: ['consignoremail', 'consignorphone', 'consignordetails', 'contact'],
};

const normaliseHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const columnsByHeader = new Map<string, CatalogueColumn>(
  catalogueColumns.flatMap((column) => [
    [normaliseHeader(column), column] as const,
    ...aliases[column].map((alias) => [alias, column] as const),
  ]),
);

/** The field a header names; a column of no known field keeps its header, to be ignored. */
export const columnOf = (header: string): string =>
  columnsByHeader.get(normaliseHeader(header)) ?? `unknown:${header}`;

export const isCatalogueColumn = (key: string): key is CatalogueColumn =>
  (catalogueColumns as readonly string[]).includes(key);

/** How a column is called to the house, for messages about a whole file. */
export const columnLabels: Record<CatalogueColumn, string> = {
  lotNumber: 'Lot Number',
  title: 'Title',
  description: 'Description',
  category: 'Category',
  estimateLow: 'Low Estimate',
  estimateHigh: 'High Estimate',
  reserve: 'Reserve',
  consignorName: 'Consignor',
  consignorContact: 'Consignor Contact',
};

/** A cell as text: spreadsheets hand over numbers, formulas (their result) and rich text too. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('result' in value) return cellText((value as { result: unknown }).result);
    if ('richText' in value) {
      return (value as { richText: { text: string }[] }).richText.map((run) => run.text).join('');
    }
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return '';
  }
  return String(value).trim();
}

export type Money = { minor: number | null } | { problem: string };

const AMOUNT = /^(\d{1,3}(,\d{3})+|\d+)(\.(\d+))?$/;

/**
 * An amount in major units as a catalogue prints it ("1,250.00", "$1250", 1250.5 from a
 * spreadsheet) in minor units of a currency with `exponent` decimals; empty is no amount. Done
 * on the digits, not in floating point, so 0.29 is 29 cents, not 28.999….
 */
export function moneyOf(value: unknown, exponent: number): Money {
  const unit = exponent === 0 ? 'whole units' : `at most ${exponent} decimals`;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'is not an amount' };
    if (value < 0) return { problem: 'cannot be negative' };
    // A spreadsheet's 1250.1 may be stored as 1250.0999999999999: its shortest form is meant.
    text = Number(value.toFixed(Math.max(exponent, 6))).toString();
    if (text.includes('e')) return { problem: 'is not an amount' };
  } else {
    text = cellText(value).replace(/[\s$€£¥]/g, '');
  }
  if (text === '') return { minor: null };
  if (text.startsWith('-')) return { problem: 'cannot be negative' };
  const match = AMOUNT.exec(text);
  if (!match) return { problem: 'is an amount like 1,250.00' };
  const whole = (match[1] ?? '').replace(/,/g, '');
  const fraction = (match[4] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return { problem: `has ${unit}` };
  const digits = `${whole}${fraction.padEnd(exponent, '0')}`.replace(/^0+(?=\d)/, '');
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return { problem: 'is too large' };
  return { minor };
}

const categoryByName = new Map(
  preferredCategories.map((category) => [category.toLowerCase(), category]),
);

export interface RowProblem {
  field: string;
  message: string;
}

export type CatalogueRow = { lot: LotInput } | { problems: RowProblem[] };

/** The column a problem of the lot contract is about. */
function columnOfIssue(issue: z.core.$ZodIssue): string {
  const [first, second] = issue.path.map(String);
  if (first === 'consignor') return second === 'contact' ? 'consignorContact' : 'consignorName';
  return first ?? 'row';
}

const messageOf = (issue: z.core.$ZodIssue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;

/** Whether a row has nothing in any column Lotwise reads (a spacer row): it is passed over. */
export const isBlankRow = (values: Record<string, unknown>) =>
  catalogueColumns.every((column) => cellText(values[column]) === '');

/**
 * One row's cells (keyed by `columnOf`) as a lot's input, or every problem with them. Money is
 * read with the auction currency's `exponent`.
 */
export function lotOfRow(values: Record<string, unknown>, exponent: number): CatalogueRow {
  const problems: RowProblem[] = [];
  const text = (column: CatalogueColumn) => cellText(values[column]);
  const money = (column: 'estimateLow' | 'estimateHigh' | 'reserve') => {
    const read = moneyOf(values[column], exponent);
    if ('problem' in read) {
      problems.push({ field: column, message: read.problem });
      return null;
    }
    return read.minor;
  };
  const categoryText = text('category');
  const category = categoryText === '' ? null : categoryByName.get(categoryText.toLowerCase());
  if (category === undefined) {
    problems.push({
      field: 'category',
      message: `"${categoryText}" is not a category; use one of ${preferredCategories.join(', ')}`,
    });
  }
  const consignorName = text('consignorName');
  const consignorContact = text('consignorContact');
  const candidate = {
    lotNumber: text('lotNumber'),
    title: text('title'),
    description: text('description'),
    category: category ?? null,
    estimateLow: money('estimateLow'),
    estimateHigh: money('estimateHigh'),
    reserve: money('reserve'),
    consignor:
      consignorName || consignorContact ? { name: consignorName, contact: consignorContact } : null,
  };
  const parsed = lotInputSchema.safeParse(candidate, { reportInput: true });
  if (!parsed.success) {
    const named = new Set(problems.map((problem) => problem.field));
    for (const issue of parsed.error.issues) {
      const field = columnOfIssue(issue);
      // A money cell already refused is not refused again for being empty.
      if (!named.has(field)) problems.push({ field, message: messageOf(issue) });
    }
  }
  if (problems.length || !parsed.success) {
    const order = (field: string) => catalogueColumns.indexOf(field as CatalogueColumn);
    return { problems: problems.sort((a, b) => order(a.field) - order(b.field)) };
  }
  return { lot: parsed.data };
}
