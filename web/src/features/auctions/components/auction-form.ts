import {
  auctionInputSchema,
  auctionUpdateSchema,
  type Auction,
  type AuctionCategory,
  type AuctionStatus,
  type AuctionUpdate,
  type Currency,
} from '@contracts/auctions/auctions.schema';
import type { paymentMethods } from '@contracts/bidders/bidders.schema';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { fieldLabel } from '../../../lib/field-errors';
import { parseMoney, toMajorText } from '../../../lib/money';

/**
 * The Create and Edit Auction forms' state: what is typed, as typed (amounts as text in major
 * units), and its translation into the contract's body with each problem keyed by the field path
 * the service uses, so local and server problems show in the same place.
 */

type PaymentMethod = (typeof paymentMethods)[number];

let rows = 0;
/** A stable key for a row of a list the form grows ("Add increment"). */
export const rowKey = () => `row-${(rows += 1)}`;

export interface RequirementRow {
  key: string;
  text: string;
}
export interface IncrementRow {
  key: string;
  from: string;
  increment: string;
}
export interface DepositRow {
  key: string;
  description: string;
  amount: string;
}
export interface ShippingRow {
  key: string;
  name: string;
  price: string;
  description: string;
}

export interface AuctionFormState {
  title: string;
  type: Auction['type'];
  category: AuctionCategory | '';
  subcategory: string;
  description: string;
  notes: string;
  location: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  timeZone: string;
  buyersPremium: string;
  buyersPremiumDescription: string;
  currency: Currency;
  auctionHouseId: string;
  registrationRequired: boolean;
  requirements: RequirementRow[];
  paymentMethods: PaymentMethod[];
  biddingIncrements: IncrementRow[];
  biddingDeposits: DepositRow[];
  shippingOptions: ShippingRow[];
  terms: string;
  /** Edit only: the status to move to (the current one keeps it), and why. */
  status: AuctionStatus;
  statusReason: string;
}

/** The spec's defaults: Live, USD, no premium, registration required. */
export const blankAuctionForm = (): AuctionFormState => ({
  title: '',
  type: 'Live',
  category: '',
  subcategory: '',
  description: '',
  notes: '',
  location: '',
  startDate: '',
  startTime: '',
  endDate: '',
  endTime: '',
  timeZone: '',
  buyersPremium: '0',
  buyersPremiumDescription: '',
  currency: 'USD',
  auctionHouseId: '',
  registrationRequired: true,
  requirements: [],
  paymentMethods: [],
  biddingIncrements: [],
  biddingDeposits: [],
  shippingOptions: [],
  terms: '',
  status: 'Draft',
  statusReason: '',
});

export function formFromAuction(auction: Auction): AuctionFormState {
  const money = (minor: number | null) => toMajorText(minor, auction.currency);
  return {
    title: auction.title,
    type: auction.type,
    category: auction.category,
    subcategory: auction.subcategory,
    description: auction.description,
    notes: auction.notes,
    location: auction.location,
    startDate: auction.startDate,
    startTime: auction.startTime,
    endDate: auction.endDate,
    endTime: auction.endTime,
    timeZone: auction.timeZone,
    buyersPremium: String(auction.buyersPremium),
    buyersPremiumDescription: auction.buyersPremiumDescription,
    currency: auction.currency,
    auctionHouseId: auction.auctionHouseId ?? '',
    registrationRequired: auction.registrationRequired,
    requirements: auction.requirements.map((text) => ({ key: rowKey(), text })),
    paymentMethods: auction.paymentMethods,
    biddingIncrements: auction.biddingIncrements.map((row) => ({
      key: rowKey(),
      from: money(row.from),
      increment: money(row.increment),
    })),
    biddingDeposits: auction.biddingDeposits.map((row) => ({
      key: rowKey(),
      description: row.description,
      amount: money(row.amount),
    })),
    shippingOptions: auction.shippingOptions.map((row) => ({
      key: rowKey(),
      name: row.name,
      price: money(row.price),
      description: row.description,
    })),
    terms: auction.terms,
    status: auction.status,
    statusReason: '',
  };
}

const fieldLabels: Record<string, string> = {
  title: 'Title',
  type: 'Auction type',
  category: 'Category',
  subcategory: 'Subcategory',
  startDate: 'Start date',
  startTime: 'Start time',
  endDate: 'End date',
  endTime: 'End time',
  timeZone: 'Time zone',
  buyersPremium: "Buyer's premium",
  buyersPremiumDescription: "Buyer's premium description",
  auctionHouseId: 'Auction house',
  statusReason: 'Reason for the status change',
  paymentMethods: 'Payment methods',
  biddingIncrements: 'Bidding increments',
  biddingDeposits: 'Deposits',
  shippingOptions: 'Shipping options',
  terms: 'Auction terms',
  requirements: 'Requirements',
  from: 'From',
  increment: 'Increment',
  amount: 'Amount',
  price: 'Price',
  name: 'Name',
  description: 'Description',
};

/** A field problem as a sentence with the form's own label: "Start date is not a real date". */
export function auctionFieldSentence(key: string, message: string): string {
  if (!/^[a-z]/.test(message)) return message;
  const last =
    key
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? key;
  const label =
    fieldLabels[key] ?? (key.includes('.') ? fieldLabels[last] : undefined) ?? fieldLabel(last);
  return `${label} ${message}`;
}

/** The problems of a 400 or of the contract, keyed by field path, as sentences. */
export function auctionFieldErrors(
  problems: readonly { field: string; message: string }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    errors[problem.field] ??= auctionFieldSentence(problem.field, problem.message);
  }
  return errors;
}

/** The field problems a 400 names, worded with the form's labels. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const fields =
    (error.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
  return auctionFieldErrors(fields);
}

const zodProblems = (error: z.ZodError) =>
  error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));

type Body = z.input<typeof auctionInputSchema>;
export type FormCheck = { ok: true; body: Body } | { ok: false; errors: Record<string, string> };

const isRealDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
/** Stands in for a date already refused, so the rest of the form is still checked. */
const PLACEHOLDER_DATE = '2000-01-01';

const required = [
  'title',
  'category',
  'startDate',
  'startTime',
  'endDate',
  'endTime',
] as const satisfies readonly (keyof AuctionFormState)[];

/** The form as the contract's body, or every problem found on the way. */
function toBody(form: AuctionFormState): {
  body: Body;
  problems: { field: string; message: string }[];
} {
  const problems: { field: string; message: string }[] = [];
  // A blank required field is missing, not malformed: said in those words.
  for (const field of required) {
    if (!String(form[field]).trim()) problems.push({ field, message: 'is required' });
  }
  // The contract's date check throws on text that is no date at all (reported to the
  // integrator), so such text is refused here and never reaches it.
  const date = (field: 'startDate' | 'endDate'): string => {
    const value = form[field];
    if (isRealDate(value)) return value;
    if (value.trim()) problems.push({ field, message: 'is a date like 2026-12-31' });
    return PLACEHOLDER_DATE;
  };
  const money = (field: string, text: string, required: boolean): number | null => {
    const parsed = parseMoney(text, form.currency);
    if (!parsed.ok) {
      problems.push({ field, message: parsed.message });
      return null;
    }
    if (parsed.minor === null && required) problems.push({ field, message: 'is required' });
    return parsed.minor;
  };
  const premiumText = form.buyersPremium.trim();
  const premium = premiumText === '' ? 0 : Number(premiumText);
  if (Number.isNaN(premium)) problems.push({ field: 'buyersPremium', message: 'is a percentage' });

  const body: Body = {
    title: form.title,
    type: form.type,
    // Blank stays blank so the contract says the category is required.
    category: form.category as AuctionCategory,
    subcategory: form.subcategory,
    description: form.description,
    notes: form.notes,
    location: form.location,
    startDate: date('startDate'),
    startTime: form.startTime,
    endDate: date('endDate'),
    endTime: form.endTime,
    ...(form.timeZone ? { timeZone: form.timeZone } : {}),
    buyersPremium: Number.isNaN(premium) ? 0 : premium,
    buyersPremiumDescription: form.buyersPremiumDescription,
    currency: form.currency,
    // None chosen: the account's only house runs it, or the account itself when it has none.
    auctionHouseId: form.auctionHouseId || null,
    registrationRequired: form.registrationRequired,
    requirements: form.requirements.map((row) => row.text),
    paymentMethods: form.paymentMethods,
    biddingIncrements: form.biddingIncrements.map((row, index) => ({
      from: money(`biddingIncrements.${index}.from`, row.from, true) ?? 0,
      increment: money(`biddingIncrements.${index}.increment`, row.increment, true) ?? 0,
    })),
    biddingDeposits: form.biddingDeposits.map((row, index) => ({
      description: row.description,
      amount: money(`biddingDeposits.${index}.amount`, row.amount, true) ?? 0,
    })),
    shippingOptions: form.shippingOptions.map((row, index) => ({
      name: row.name,
      price: money(`shippingOptions.${index}.price`, row.price, false),
      description: row.description,
    })),
    terms: form.terms,
  };
  return { body, problems };
}

/** Create: the body POST /auctions takes, checked against its contract first. */
export function checkCreate(form: AuctionFormState): FormCheck {
  const { body, problems } = toBody(form);
  const checked = auctionInputSchema.safeParse(body);
  const all = [...problems, ...(checked.success ? [] : zodProblems(checked.error))];
  return all.length ? { ok: false, errors: auctionFieldErrors(all) } : { ok: true, body };
}

/** Equal values, objects compared field by field whatever their order. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => same(item, b[index]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) =>
      same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    );
  }
  return a === b;
}

export type UpdateCheck =
  { ok: true; changes: AuctionUpdate } | { ok: false; errors: Record<string, string> };

/**
 * Edit: only the fields that differ from the auction as loaded (so a field someone else changed
 * meanwhile is not written back unseen), checked against the update contract.
 */
export function checkUpdate(auction: Auction, form: AuctionFormState): UpdateCheck {
  const { body, problems } = toBody(form);
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (!same(value, auction[field as keyof Auction])) changes[field] = value;
  }
  if (form.status !== auction.status) {
    changes.status = form.status;
    if (form.statusReason.trim()) changes.statusReason = form.statusReason;
    else if (form.status === 'Cancelled')
      problems.push({ field: 'statusReason', message: 'Say why the auction is cancelled' });
  }
  const checked = auctionUpdateSchema.safeParse(changes);
  const all = [...problems, ...(checked.success ? [] : zodProblems(checked.error))];
  if (all.length) return { ok: false, errors: auctionFieldErrors(all) };
  return { ok: true, changes: checked.success ? checked.data : {} };
}
