import type { Currency } from '@contracts/auctions/auctions.schema';
import {
  caseInputSchema,
  caseUpdateSchema,
  type CaseCategory,
  type CasePriority,
  type CaseType,
  type CaseUpdate,
  type LegalCase,
  type Party,
  type PartyType,
} from '@contracts/legal/legal.schema';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { parseMoney, toMajorText } from '../../../lib/money';

/** The new-case form and the edit panel as typed: text, and nothing yet where nothing is chosen. */
export interface CaseFormState {
  caseType: CaseType | '';
  category: CaseCategory | '';
  priority: CasePriority | '';
  title: string;
  description: string;
  jurisdiction: string;
  claimAmount: string;
  currency: Currency;
  plaintiffName: string;
  plaintiffType: PartyType;
  plaintiffEmail: string;
  defendantName: string;
  defendantType: PartyType;
  defendantEmail: string;
  auction: { id: string; title: string } | null;
  bidder: { id: string; name: string } | null;
  /** A member's id; blank is unassigned. */
  assignedTo: string;
  legalCounsel: string;
  courtCaseNumber: string;
  estimatedResolutionDate: string;
  filingDeadline: string;
  resolutionNotes: string;
}

export type CaseFormKey = keyof CaseFormState;

export const caseFieldLabels: Record<CaseFormKey, string> = {
  caseType: 'Case type',
  category: 'Category',
  priority: 'Priority',
  title: 'Case title',
  description: 'Description',
  jurisdiction: 'Jurisdiction',
  claimAmount: 'Claim amount',
  currency: 'Currency',
  plaintiffName: 'Plaintiff name',
  plaintiffType: 'Plaintiff type',
  plaintiffEmail: 'Plaintiff email',
  defendantName: 'Defendant name',
  defendantType: 'Defendant type',
  defendantEmail: 'Defendant email',
  auction: 'Auction',
  bidder: 'Bidder',
  assignedTo: 'Assigned to',
  legalCounsel: 'Legal counsel',
  courtCaseNumber: 'Court case number',
  estimatedResolutionDate: 'Estimated resolution',
  filingDeadline: 'Filing deadline',
  resolutionNotes: 'Resolution notes',
};

/** Case Type, Category, Priority, Case Title and Jurisdiction (spec 5). */
export const requiredCaseFields = [
  'caseType',
  'category',
  'priority',
  'title',
  'jurisdiction',
] as const satisfies readonly CaseFormKey[];

/** The spec's message when any of those is missing. */
export const MISSING_REQUIRED = 'Please fill in all required fields';

export const blankCaseForm = (): CaseFormState => ({
  caseType: '',
  category: '',
  priority: '',
  title: '',
  description: '',
  jurisdiction: '',
  claimAmount: '',
  currency: 'USD',
  plaintiffName: '',
  plaintiffType: 'individual',
  plaintiffEmail: '',
  defendantName: '',
  defendantType: 'individual',
  defendantEmail: '',
  auction: null,
  bidder: null,
  assignedTo: '',
  legalCounsel: '',
  courtCaseNumber: '',
  estimatedResolutionDate: '',
  filingDeadline: '',
  resolutionNotes: '',
});

export const formFromCase = (legalCase: LegalCase): CaseFormState => ({
  caseType: legalCase.caseType,
  category: legalCase.category,
  priority: legalCase.priority,
  title: legalCase.title,
  description: legalCase.description,
  jurisdiction: legalCase.jurisdiction,
  claimAmount: legalCase.claimAmount ? toMajorText(legalCase.claimAmount, legalCase.currency) : '',
  currency: legalCase.currency,
  plaintiffName: legalCase.plaintiff.name,
  plaintiffType: legalCase.plaintiff.type,
  plaintiffEmail: legalCase.plaintiff.email,
  defendantName: legalCase.defendant.name,
  defendantType: legalCase.defendant.type,
  defendantEmail: legalCase.defendant.email,
  auction: legalCase.auction,
  bidder: legalCase.bidder,
  assignedTo: legalCase.assignedTo?.id ?? '',
  legalCounsel: legalCase.legalCounsel,
  courtCaseNumber: legalCase.courtCaseNumber,
  estimatedResolutionDate: legalCase.estimatedResolutionDate ?? '',
  filingDeadline: legalCase.filingDeadline ?? '',
  resolutionNotes: legalCase.resolutionNotes,
});

const bodyFields: Record<string, CaseFormKey> = {
  'plaintiff.name': 'plaintiffName',
  'plaintiff.type': 'plaintiffType',
  'plaintiff.email': 'plaintiffEmail',
  'defendant.name': 'defendantName',
  'defendant.type': 'defendantType',
  'defendant.email': 'defendantEmail',
  auctionId: 'auction',
  bidderId: 'bidder',
};

/** The form's field a body field (`plaintiff.email`, `auctionId`) is typed into, if any. */
export function formKeyOf(field: string): CaseFormKey | undefined {
  if (field in bodyFields) return bodyFields[field];
  return field in caseFieldLabels ? (field as CaseFormKey) : undefined;
}

/** "Plaintiff email is not an email address"; whole messages stay as they are. */
const sentence = (key: CaseFormKey, message: string) =>
  /^[a-z]/.test(message) ? `${caseFieldLabels[key]} ${message}` : message;

/** The problems with the form, by field, for a list of field problems named as in the body. */
function problemsByField(problems: { field: string; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const key = formKeyOf(problem.field);
    if (key) errors[key] ??= sentence(key, problem.message);
    else errors[problem.field] ??= `${problem.field} ${problem.message}`;
  }
  return errors;
}

const zodProblems = (error: z.ZodError) =>
  error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));

/** A 400's problems beside the fields the service named; nothing for any other failure. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const fields =
    (error.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
  return problemsByField(fields);
}

const party = (name: string, type: PartyType, email: string): Party => ({
  name: name.trim(),
  type,
  email: email.trim(),
});

export type CaseCheck<T> =
  { ok: true; body: T } | { ok: false; errors: Record<string, string>; missingRequired: boolean };

/** The required fields left blank, each marked. */
function missingFields(form: CaseFormState): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of requiredCaseFields) {
    if (!form[key].trim()) errors[key] = `${caseFieldLabels[key]} is required`;
  }
  return errors;
}

/** The claim in minor units, or the problem with what was typed. */
function claimOf(form: CaseFormState, currency: Currency) {
  const parsed = parseMoney(form.claimAmount, currency);
  return parsed.ok
    ? { minor: parsed.minor ?? 0, error: null }
    : { minor: 0, error: sentence('claimAmount', parsed.message) };
}

/** The body of POST /cases, checked against the service's own contract before it is sent. */
export function checkNewCase(form: CaseFormState): CaseCheck<z.input<typeof caseInputSchema>> {
  const missing = missingFields(form);
  const claim = claimOf(form, form.currency);
  const body = {
    caseType: form.caseType || 'other',
    category: form.category || 'other',
    priority: form.priority || 'low',
    title: form.title,
    description: form.description,
    jurisdiction: form.jurisdiction,
    claimAmount: claim.minor,
    currency: form.currency,
    plaintiff: party(form.plaintiffName, form.plaintiffType, form.plaintiffEmail),
    defendant: party(form.defendantName, form.defendantType, form.defendantEmail),
    auctionId: form.auction?.id ?? null,
    bidderId: form.bidder?.id ?? null,
    assignedTo: form.assignedTo || null,
  } satisfies z.input<typeof caseInputSchema>;
  const parsed = caseInputSchema.safeParse(body);
  const errors = {
    ...(parsed.success ? {} : problemsByField(zodProblems(parsed.error))),
    ...(claim.error ? { claimAmount: claim.error } : {}),
    ...missing,
  };
  if (Object.keys(errors).length) {
    return { ok: false, errors, missingRequired: Object.keys(missing).length > 0 };
  }
  return { ok: true, body };
}

type TextField =
  'title' | 'description' | 'jurisdiction' | 'legalCounsel' | 'courtCaseNumber' | 'resolutionNotes';

const sameParty = (a: Party, b: Party) =>
  a.name === b.name && a.type === b.type && a.email === b.email;

/** Only what changed since the version being edited, checked against the update contract. */
export function checkCaseUpdate(base: LegalCase, form: CaseFormState): CaseCheck<CaseUpdate> {
  const missing = missingFields(form);
  const claim = claimOf(form, base.currency);
  const plaintiff = party(form.plaintiffName, form.plaintiffType, form.plaintiffEmail);
  const defendant = party(form.defendantName, form.defendantType, form.defendantEmail);
  const changes: Record<string, unknown> = {};
  const text = (key: TextField, was: string) => {
    if (form[key].trim() !== was) changes[key] = form[key];
  };
  if (form.caseType && form.caseType !== base.caseType) changes.caseType = form.caseType;
  if (form.category && form.category !== base.category) changes.category = form.category;
  if (form.priority && form.priority !== base.priority) changes.priority = form.priority;
  text('title', base.title);
  text('description', base.description);
  text('jurisdiction', base.jurisdiction);
  text('legalCounsel', base.legalCounsel);
  text('courtCaseNumber', base.courtCaseNumber);
  text('resolutionNotes', base.resolutionNotes);
  if (claim.minor !== base.claimAmount) changes.claimAmount = claim.minor;
  if (!sameParty(plaintiff, base.plaintiff)) changes.plaintiff = plaintiff;
  if (!sameParty(defendant, base.defendant)) changes.defendant = defendant;
  const ids = {
    auctionId: [form.auction?.id ?? null, base.auction?.id ?? null],
    bidderId: [form.bidder?.id ?? null, base.bidder?.id ?? null],
    assignedTo: [form.assignedTo || null, base.assignedTo?.id ?? null],
    estimatedResolutionDate: [form.estimatedResolutionDate || null, base.estimatedResolutionDate],
    filingDeadline: [form.filingDeadline || null, base.filingDeadline],
  } as const;
  for (const [key, [now, was]] of Object.entries(ids)) {
    if (now !== was) changes[key] = now;
  }
  const parsed = caseUpdateSchema.safeParse(changes);
  const errors = {
    ...(parsed.success ? {} : problemsByField(zodProblems(parsed.error))),
    ...(claim.error ? { claimAmount: claim.error } : {}),
    ...missing,
  };
  if (!parsed.success || Object.keys(errors).length) {
    return { ok: false, errors, missingRequired: Object.keys(missing).length > 0 };
  }
  return { ok: true, body: parsed.data };
}
