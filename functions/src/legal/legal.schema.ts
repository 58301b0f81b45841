import { z } from 'zod';
import { currencies, minorUnits } from '../auctions/auctions.schema.js';

/** Contracts of the legal service (cases and their workflow), shared with the web app. */

export const caseStatuses = [
  'SUBMITTED',
  'PENDING',
  'IN REVIEW',
  'MEDIATION',
  'LITIGATION',
  'RESOLVED',
  'SETTLED',
  'DISMISSED',
  'CLOSED',
] as const;
export type CaseStatus = (typeof caseStatuses)[number];

/** A finished case no longer counts as active (spec 4.1). */
export const finishedStatuses: readonly CaseStatus[] = [
  'CLOSED',
  'RESOLVED',
  'DISMISSED',
  'SETTLED',
];
export const isActiveStatus = (status: CaseStatus) => !finishedStatuses.includes(status);

export interface Transition {
  to: CaseStatus;
  description: string;
  /** Settling names the amount agreed. */
  requiresSettlement: boolean;
}

const move = (to: CaseStatus, description: string, requiresSettlement = false): Transition => ({
  to,
  description,
  requiresSettlement,
});

/** The only moves a case may make, with the spec's descriptions (4.1). */
export const caseTransitions: Record<CaseStatus, readonly Transition[]> = {
  SUBMITTED: [
    move('PENDING', 'Initial review and assignment'),
    move('DISMISSED', 'Invalid or duplicate submission'),
  ],
  PENDING: [
    move('IN REVIEW', 'Begin detailed investigation'),
    move('DISMISSED', 'Insufficient evidence or jurisdiction'),
  ],
  'IN REVIEW': [
    move('MEDIATION', 'Attempt resolution through mediation'),
    move('LITIGATION', 'Escalate to formal legal proceedings'),
    move('RESOLVED', 'Internal resolution'),
    move('DISMISSED', 'Case lacks merit'),
  ],
  MEDIATION: [
    move('SETTLED', 'Settlement reached in mediation', true),
    move('LITIGATION', 'Mediation failed'),
    move('DISMISSED', 'Parties withdraw'),
  ],
  LITIGATION: [
    move('SETTLED', 'Out-of-court settlement', true),
    move('RESOLVED', 'Court ruling in our favor'),
    move('DISMISSED', 'Court dismisses case'),
  ],
  RESOLVED: [move('CLOSED', 'Closed after resolution')],
  SETTLED: [move('CLOSED', 'Closed on payment received')],
  DISMISSED: [move('CLOSED', 'Administrative closure')],
  CLOSED: [],
};

/** Spec 9.3: PENDING moves to IN REVIEW 24 hours after submission. */
export const AUTO_REVIEW_AFTER_HOURS = 24;
/** Spec 9.3: DISMISSED cases close after 30 days; a reminder after 30 days without updates. */
export const DISMISSED_CLOSE_AFTER_DAYS = 30;
export const REMINDER_AFTER_DAYS = 30;
/**
 * A RESOLVED case closes a week after its resolution (the spec says only "after resolution"),
 * leaving time to record what remains before the record is final.
 */
export const RESOLVED_CLOSE_AFTER_DAYS = 7;

/**
 * A non-paying-bidder case follows LiveAuctioneers' window: it may be filed from 5 days after the
 * sale (the purchase is overdue) until 45 days after it.
 */
export const NON_PAYMENT_FILE_AFTER_DAYS = 5;
export const NON_PAYMENT_FILE_WITHIN_DAYS = 45;
/** The bidder is reminded three times, a week apart, while the purchase stays unpaid. */
export const NON_PAYMENT_REMINDERS = 3;
export const NON_PAYMENT_REMINDER_EVERY_DAYS = 7;

/** Settlements above this many major units wait for a director's approval (spec 9.3). */
export const DIRECTOR_APPROVAL_ABOVE = 50_000;
export const CASE_LIST_MAX = 1000;

export const casePriorities = ['critical', 'high', 'medium', 'low'] as const;
export type CasePriority = (typeof casePriorities)[number];
export const priorityLabels: Record<CasePriority, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};
/** The list's priority sort: Critical 4 ... Low 1. */
export const priorityWeights: Record<CasePriority, number> = {
  critical: 4,
  high: 3,
  medium: 2,
  low: 1,
};

export const caseTypes = [
  'payment_dispute',
  'authenticity_claim',
  'condition_dispute',
  'title_dispute',
  'contract_breach',
  'bidder_complaint',
  'consigner_dispute',
  'other',
] as const;
export type CaseType = (typeof caseTypes)[number];
export const caseTypeLabels: Record<CaseType, string> = {
  payment_dispute: 'Payment Dispute',
  authenticity_claim: 'Authenticity Claim',
  condition_dispute: 'Condition Dispute',
  title_dispute: 'Title Dispute',
  contract_breach: 'Breach of Contract',
  bidder_complaint: 'Bidder Complaint',
  consigner_dispute: 'Consigner Dispute',
  other: 'Other',
};

export const caseCategories = [
  'pre_sale',
  'during_sale',
  'post_sale',
  'administrative',
  'regulatory',
  'other',
] as const;
export type CaseCategory = (typeof caseCategories)[number];
export const caseCategoryLabels: Record<CaseCategory, string> = {
  pre_sale: 'Pre-sale',
  during_sale: 'During sale',
  post_sale: 'Post-sale',
  administrative: 'Administrative',
  regulatory: 'Regulatory',
  other: 'Other',
};

export const partyTypes = ['individual', 'business', 'government', 'organization'] as const;
export type PartyType = (typeof partyTypes)[number];

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => text(max).min(1, 'is required');

/** A calendar day that exists (no 30 February). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'is a date like 2026-12-31')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, 'is not a real date');

export const partySchema = z.object({
  name: text(200).default(''),
  type: z.enum(partyTypes).default('individual'),
  email: z.union([z.literal(''), z.email('is not an email address').max(254)]).default(''),
});
export type Party = z.infer<typeof partySchema>;

/** The new-case form (spec 3.1): Case Type, Category, Priority, Title and Jurisdiction required. */
export const caseInputSchema = z.object({
  caseType: z.enum(caseTypes),
  category: z.enum(caseCategories),
  priority: z.enum(casePriorities),
  title: required(200),
  description: text(5000).default(''),
  jurisdiction: required(200),
  /** Integer minor units of `currency`. */
  claimAmount: minorUnits.default(0),
  currency: z.enum(currencies).default('USD'),
  plaintiff: partySchema.default({ name: '', type: 'individual', email: '' }),
  defendant: partySchema.default({ name: '', type: 'individual', email: '' }),
  auctionId: z.string().trim().min(1).max(100).nullable().default(null),
  bidderId: z.string().trim().min(1).max(100).nullable().default(null),
  assignedTo: z.string().trim().min(1).max(100).nullable().default(null),
});
export type CaseInput = z.infer<typeof caseInputSchema>;

/** What an edit may change (status moves only through the workflow). Every field is optional. */
export const caseUpdateSchema = z
  .object({
    caseType: z.enum(caseTypes),
    category: z.enum(caseCategories),
    priority: z.enum(casePriorities),
    title: required(200),
    description: text(5000),
    jurisdiction: required(200),
    claimAmount: minorUnits,
    plaintiff: partySchema,
    defendant: partySchema,
    auctionId: z.string().trim().min(1).max(100).nullable(),
    bidderId: z.string().trim().min(1).max(100).nullable(),
    assignedTo: z.string().trim().min(1).max(100).nullable(),
    legalCounsel: text(200),
    courtCaseNumber: text(100),
    estimatedResolutionDate: isoDate.nullable(),
    filingDeadline: isoDate.nullable(),
    resolutionNotes: text(5000),
  })
  .partial()
  .strict();
export type CaseUpdate = z.infer<typeof caseUpdateSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });
export type Person = z.infer<typeof personSchema>;

export const pendingApprovalSchema = z.object({
  to: z.enum(caseStatuses),
  settlementAmount: z.number().int(),
  reason: z.string(),
  requestedBy: personSchema,
  requestedAt: z.string(),
});
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

export const settlementPaymentSchema = z.object({
  /** Minor units of the case's currency. */
  amount: z.number().int(),
  receivedOn: z.string(),
  reference: z.string(),
  recordedBy: personSchema.nullable(),
  recordedAt: z.string(),
});
export type SettlementPayment = z.infer<typeof settlementPaymentSchema>;

export const settlementPaymentInputSchema = z.object({
  amount: minorUnits.min(1, 'must be more than 0'),
  receivedOn: isoDate,
  reference: text(200).default(''),
});
export type SettlementPaymentInput = z.infer<typeof settlementPaymentInputSchema>;

/** The non-paying-bidder case's filing form: the unpaid purchase and who handles it. */
export const nonPaymentInputSchema = z.object({
  auctionId: z.string().trim().min(1, 'is required').max(100),
  bidderId: z.string().trim().min(1, 'is required').max(100),
  priority: z.enum(casePriorities).default('medium'),
  jurisdiction: required(200),
  description: text(5000).default(''),
  assignedTo: z.string().trim().min(1).max(100).nullable().default(null),
});
export type NonPaymentInput = z.infer<typeof nonPaymentInputSchema>;

/** The purchase a non-paying bidder has not paid for, and what has been done about it. */
export const nonPaymentSchema = z.object({
  /** When the sale ended: bidding's end, or the auction's close if that came first. */
  saleDate: z.string(),
  lots: z.array(z.object({ lotNumber: z.string(), title: z.string(), hammer: z.number().int() })),
  /** The lots' hammer total, in minor units of the case's currency. */
  amountDue: z.number().int(),
  /** When each reminder went to the bidder. */
  reminders: z.array(z.object({ at: z.string(), sentTo: z.string().nullable() })),
  nextReminderAt: z.string().nullable(),
  payment: settlementPaymentSchema.nullable(),
  /** Counts against the bidder: open, or ended unpaid without being dismissed. */
  strike: z.boolean(),
});
export type NonPayment = z.infer<typeof nonPaymentSchema>;

export const nonPaymentPaymentInputSchema = settlementPaymentInputSchema;

export const caseSchema = z.object({
  id: z.string(),
  /** Human, unique in the account and never reused: LC-2026-0001. */
  caseNumber: z.string(),
  caseType: z.enum(caseTypes),
  category: z.enum(caseCategories),
  priority: z.enum(casePriorities),
  title: z.string(),
  description: z.string(),
  jurisdiction: z.string(),
  claimAmount: z.number().int(),
  currency: z.enum(currencies),
  plaintiff: partySchema,
  defendant: partySchema,
  auction: z.object({ id: z.string(), title: z.string() }).nullable(),
  bidder: z.object({ id: z.string(), name: z.string() }).nullable(),
  status: z.enum(caseStatuses),
  assignedTo: personSchema.nullable(),
  legalCounsel: z.string(),
  courtCaseNumber: z.string(),
  estimatedResolutionDate: z.string().nullable(),
  filingDeadline: z.string().nullable(),
  settlementAmount: z.number().int().nullable(),
  settlementPayment: settlementPaymentSchema.nullable(),
  resolutionNotes: z.string(),
  pendingApproval: pendingApprovalSchema.nullable(),
  nonPayment: nonPaymentSchema.nullable(),
  automationPaused: z.boolean(),
  allowedTransitions: z.array(
    z.object({
      to: z.enum(caseStatuses),
      description: z.string(),
      requiresSettlement: z.boolean(),
    }),
  ),
  createdAt: z.string(),
  createdBy: personSchema.nullable(),
  updatedAt: z.string(),
  statusChangedAt: z.string(),
  etag: z.string(),
});
export type LegalCase = z.infer<typeof caseSchema>;

/** One value or several, comma-separated or repeated: the list's multi-select filters. */
const several = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]))
        .map((item) => (typeof item === 'string' ? item.trim() : item))
        .filter((item) => item !== ''),
    z.array(z.enum(values)).max(values.length * 2),
  );

export const caseSortFields = ['date', 'priority', 'amount', 'updated', 'caseNumber'] as const;

export const listCasesQuerySchema = z
  .object({
    status: several(caseStatuses).optional(),
    /** `active` or `finished`: the Active Cases tab without naming every status. */
    state: z.enum(['active', 'finished']).optional(),
    type: several(caseTypes).optional(),
    priority: several(casePriorities).optional(),
    /** A member's id, or `me`. */
    assignedTo: z.string().trim().min(1).max(100).optional(),
    bidderId: z.string().trim().min(1).max(100).optional(),
    search: z.string().trim().max(100).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(CASE_LIST_MAX).default(50),
    sortBy: z.enum(caseSortFields).default('date'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    /** Cases filed on or after this day (UTC). */
    startDate: isoDate.optional(),
    /** Cases filed on or before this day (UTC). */
    endDate: isoDate.optional(),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    path: ['endDate'],
    message: 'is before startDate',
  });
export type ListCasesQuery = z.infer<typeof listCasesQuerySchema>;

export const listCasesResponseSchema = z.object({
  cases: z.array(caseSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ListCasesResponse = z.infer<typeof listCasesResponseSchema>;

const countOf = <T extends z.ZodType>(key: T) =>
  z.array(z.object({ key, count: z.number().int() }));

export const caseAnalyticsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  critical: z.number().int(),
  pending: z.number().int(),
  /** Claimed amounts of active cases, per currency, in minor units. */
  totalAmount: z.array(z.object({ currency: z.enum(currencies), amount: z.number().int() })),
  byStatus: countOf(z.enum(caseStatuses)),
  byPriority: countOf(z.enum(casePriorities)),
  byType: countOf(z.enum(caseTypes)),
});
export type CaseAnalytics = z.infer<typeof caseAnalyticsSchema>;

export const statusChangeSchema = z.object({
  to: z.enum(caseStatuses),
  reason: required(2000),
  /** Minor units of the case's currency; required when settling. */
  settlementAmount: minorUnits.optional(),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

export const approvalDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject']),
  reason: required(2000),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const timelineEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** What happened, e.g. "Status changed". */
  action: z.string(),
  detail: z.string(),
  fromStatus: z.enum(caseStatuses).nullable(),
  toStatus: z.enum(caseStatuses).nullable(),
  by: personSchema.nullable(),
  automated: z.boolean(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const timelineSchema = z.object({ entries: z.array(timelineEntrySchema) });
export const timelineInputSchema = z.object({
  action: required(120),
  detail: text(2000).default(''),
});

export const noteSchema = z.object({
  id: z.string(),
  text: z.string(),
  by: personSchema.nullable(),
  at: z.string(),
});
export type CaseNote = z.infer<typeof noteSchema>;
export const notesSchema = z.object({ notes: z.array(noteSchema) });
export const noteInputSchema = z.object({ text: required(5000) });

export const actionItemSchema = z.object({
  id: z.string(),
  text: z.string(),
  assignee: personSchema.nullable(),
  dueDate: z.string().nullable(),
  done: z.boolean(),
  doneAt: z.string().nullable(),
  doneBy: personSchema.nullable(),
  createdAt: z.string(),
  createdBy: personSchema.nullable(),
});
export type ActionItem = z.infer<typeof actionItemSchema>;
export const actionItemsSchema = z.object({ actions: z.array(actionItemSchema) });
export const actionInputSchema = z.object({
  text: required(1000),
  assigneeId: z.string().trim().min(1).max(100).nullable().default(null),
  dueDate: isoDate.nullable().default(null),
});
export const actionUpdateSchema = z
  .object({
    done: z.boolean(),
    assigneeId: z.string().trim().min(1).max(100).nullable(),
  })
  .partial()
  .strict();
export type ActionUpdate = z.infer<typeof actionUpdateSchema>;

export const automationToggleSchema = z.object({
  caseId: z.string().trim().min(1).max(100),
  enabled: z.boolean(),
});

/** The members a case can be assigned to: those who may move cases through the workflow. */
export const assigneesSchema = z.object({ assignees: z.array(personSchema) });
