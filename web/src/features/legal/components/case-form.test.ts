import type { LegalCase } from '@contracts/legal/legal.schema';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  blankCaseForm,
  checkCaseUpdate,
  checkNewCase,
  formFromCase,
  serverFieldErrors,
  type CaseFormState,
} from './case-form';

const filled = (changes: Partial<CaseFormState> = {}): CaseFormState => ({
  ...blankCaseForm(),
  caseType: 'payment_dispute',
  category: 'post_sale',
  priority: 'high',
  title: 'Unpaid hammer price',
  jurisdiction: 'New York',
  ...changes,
});

const stored: LegalCase = {
  id: 'case-1',
  caseNumber: 'LC-2026-0001',
  caseType: 'payment_dispute',
  category: 'post_sale',
  priority: 'high',
  title: 'Unpaid hammer price',
  description: '',
  jurisdiction: 'New York',
  claimAmount: 1_250_000,
  currency: 'USD',
  plaintiff: { name: 'Harborview', type: 'business', email: 'legal@harborview.demo' },
  defendant: { name: 'J. Doe', type: 'individual', email: '' },
  auction: { id: 'auction-1', title: 'Spring Sale' },
  bidder: null,
  status: 'SUBMITTED',
  assignedTo: { id: 'user-1', name: 'Ada Owner' },
  legalCounsel: '',
  courtCaseNumber: '',
  estimatedResolutionDate: null,
  filingDeadline: null,
  settlementAmount: null,
  settlementPayment: null,
  resolutionNotes: '',
  pendingApproval: null,
  nonPayment: null,
  automationPaused: false,
  allowedTransitions: [],
  createdAt: '2026-05-01T10:00:00.000Z',
  createdBy: null,
  updatedAt: '2026-05-01T10:00:00.000Z',
  statusChangedAt: '2026-05-01T10:00:00.000Z',
  etag: 'e1',
};

describe('checkNewCase', () => {
  it('marks every required field left blank and says the spec’s sentence is due', () => {
    const checked = checkNewCase(blankCaseForm());
    expect(checked).toEqual({
      ok: false,
      missingRequired: true,
      errors: {
        caseType: 'Case type is required',
        category: 'Category is required',
        priority: 'Priority is required',
        title: 'Case title is required',
        jurisdiction: 'Jurisdiction is required',
      },
    });
  });

  it('builds the body with the claim in minor units and the parties nested', () => {
    const checked = checkNewCase(
      filled({
        claimAmount: '12,500.50',
        currency: 'GBP',
        plaintiffName: ' Harborview ',
        plaintiffType: 'business',
        defendantEmail: 'doe@example.com',
        auction: { id: 'auction-1', title: 'Spring Sale' },
        assignedTo: 'user-2',
      }),
    );
    expect(checked.ok && checked.body).toMatchObject({
      caseType: 'payment_dispute',
      claimAmount: 1_250_050,
      currency: 'GBP',
      plaintiff: { name: 'Harborview', type: 'business', email: '' },
      defendant: { name: '', type: 'individual', email: 'doe@example.com' },
      auctionId: 'auction-1',
      bidderId: null,
      assignedTo: 'user-2',
    });
  });

  it('names a bad email or amount beside its field without claiming a field is missing', () => {
    const checked = checkNewCase(filled({ plaintiffEmail: 'not-an-email', claimAmount: '12.345' }));
    expect(checked).toEqual({
      ok: false,
      missingRequired: false,
      errors: {
        plaintiffEmail: 'Plaintiff email is not an email address',
        claimAmount: 'Claim amount has at most 2 decimals in USD',
      },
    });
  });
});

describe('checkCaseUpdate', () => {
  it('sends only what changed', () => {
    const form = { ...formFromCase(stored), priority: 'critical' as const, claimAmount: '15000' };
    expect(checkCaseUpdate(stored, form)).toEqual({
      ok: true,
      body: { priority: 'critical', claimAmount: 1_500_000 },
    });
  });

  it('sends nothing for an untouched form', () => {
    expect(checkCaseUpdate(stored, formFromCase(stored))).toEqual({ ok: true, body: {} });
  });

  it('sends a whole party, cleared links as null and days as dates', () => {
    const form = {
      ...formFromCase(stored),
      defendantEmail: 'doe@example.com',
      auction: null,
      assignedTo: '',
      filingDeadline: '2026-09-30',
    };
    expect(checkCaseUpdate(stored, form)).toEqual({
      ok: true,
      body: {
        defendant: { name: 'J. Doe', type: 'individual', email: 'doe@example.com' },
        auctionId: null,
        assignedTo: null,
        filingDeadline: '2026-09-30',
      },
    });
  });

  it('refuses a blank required field', () => {
    const checked = checkCaseUpdate(stored, { ...formFromCase(stored), jurisdiction: ' ' });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.errors.jurisdiction).toBe('Jurisdiction is required');
  });
});

describe('serverFieldErrors', () => {
  it('puts a 400’s problems beside the fields they are typed into', () => {
    const error = new ApiError('invalid', 400, 'validation_failed', {
      fields: [
        { field: 'defendant.email', message: 'is not an email address' },
        { field: 'auctionId', message: 'is not an auction of this account' },
      ],
    });
    expect(serverFieldErrors(error)).toEqual({
      defendantEmail: 'Defendant email is not an email address',
      auction: 'Auction is not an auction of this account',
    });
  });

  it('has nothing to say about other failures', () => {
    expect(serverFieldErrors(new ApiError('gone', 404, 'not_found'))).toEqual({});
    expect(serverFieldErrors(new Error('offline'))).toEqual({});
  });
});
