import { describe, expect, it } from 'vitest';
import { emptyStats } from '../../bidders/bidders.schema.js';
import { DEFAULT_AUTOMATION, DEFAULT_REGISTRATION_RULES } from '../../scoring/scoring.schema.js';
import { decideRegistration, figuresOf, type RegistrationFacts } from './registration-rules.js';

const facts = (overrides: Partial<RegistrationFacts> = {}): RegistrationFacts => ({
  bidderNumber: 'HV-1001',
  status: 'Active',
  customScore: 60,
  tier: 'Bronze',
  autoInviteStatus: 'Manual Review',
  stats: emptyStats(),
  auctionsApproved: 0,
  nonPaymentStrikes: 0,
  ...overrides,
});

const rules = structuredClone(DEFAULT_REGISTRATION_RULES);
const decide = (given: RegistrationFacts, registration = rules) =>
  decideRegistration(given, DEFAULT_AUTOMATION, registration);

describe('decideRegistration', () => {
  it('sends a bidder with no record to a reviewer, with the Bronze limit ready', () => {
    expect(decide(facts())).toEqual({
      status: 'pending',
      reasons: ['No record yet: a reviewer decides'],
      bidLimit: 250_000,
    });
  });

  it('approves what the automation rules invite, with the tier limit named', () => {
    const decision = decide(
      facts({ autoInviteStatus: 'Auto-Invite', customScore: 88, tier: 'Premium' }),
    );
    expect(decision.status).toBe('approved');
    expect(decision.bidLimit).toBeNull();
    expect(decision.reasons).toEqual([
      'Custom score 88 meets the auto-invite threshold 80',
      'Premium tier: no bid limit',
    ]);
  });

  it('denies on the facts the automation checks, naming each', () => {
    const decision = decide(
      facts({
        autoInviteStatus: 'Auto-Deny',
        customScore: 30,
        stats: { ...emptyStats(), disputes: 1, priorDefaults: 2 },
      }),
    );
    expect(decision).toEqual({
      status: 'denied',
      reasons: [
        '1 dispute on record (auto-deny checks disputes)',
        '2 payment defaults on record (auto-deny checks defaults)',
        'Custom score 30 is below the auto-deny threshold 40',
      ],
      bidLimit: null,
    });
  });

  it('never auto-approves with an open dispute when the house says so', () => {
    const disputed = facts({
      autoInviteStatus: 'Auto-Invite',
      stats: { ...emptyStats(), disputes: 1 },
    });
    expect(decide(disputed).status).toBe('pending');
    expect(decide(disputed, { ...rules, neverWithOpenDispute: false }).status).toBe('approved');
  });

  it('denies a bidder with two non-paying-bidder strikes, even one the house would invite', () => {
    const invited = { autoInviteStatus: 'Auto-Invite' as const, customScore: 90 };
    expect(decide(facts({ ...invited, nonPaymentStrikes: 1 })).status).toBe('approved');
    expect(decide(facts({ ...invited, nonPaymentStrikes: 2 }))).toEqual({
      status: 'denied',
      reasons: ['2 non-paying-bidder strikes: unpaid purchases with open or lost cases'],
      bidLimit: null,
    });
  });

  it('approves on the history the house accepts', () => {
    const decision = decide(
      facts({ auctionsApproved: 3, stats: { ...emptyStats(), totalAuctionsBid: 3 } }),
    );
    expect(decision.status).toBe('approved');
    expect(decision.reasons[0]).toBe('Approved for 3 auctions (the house accepts 3 or more)');
    const spender = decide(facts({ stats: { ...emptyStats(), wins: 2, totalWinAmount: 1500 } }), {
      ...rules,
      autoApprove: { ...rules.autoApprove, amountSpent: 100_000 },
    });
    expect(spender.reasons[0]).toBe('Spent $1,500 (the house accepts $1,000 or more)');
  });

  it('lets the house lists win over everything, decline first', () => {
    const listed = { ...rules, autoAccept: ['hv-1001'], autoDecline: [] };
    expect(decide(facts({ autoInviteStatus: 'Auto-Deny' }), listed).status).toBe('approved');
    expect(decide(facts(), { ...listed, autoDecline: ['HV-1001'] }).reasons).toEqual([
      "On the house's auto-decline list",
    ]);
    expect(decide(facts({ status: 'Suspended', autoInviteStatus: 'Auto-Invite' })).status).toBe(
      'denied',
    );
  });

  it('gives a reviewer the payment rate, average hammer and open disputes', () => {
    expect(
      figuresOf(
        facts({
          auctionsApproved: 2,
          stats: {
            ...emptyStats(),
            paymentsOnTime: 3,
            paymentsLate: 1,
            wins: 4,
            totalWinAmount: 1000,
            disputes: 1,
          },
        }),
      ),
    ).toEqual({
      paymentRate: 0.75,
      averageHammer: 25_000,
      totalPaid: 100_000,
      openDisputes: 1,
      priorDefaults: 0,
      auctionsApproved: 2,
      itemsWon: 4,
    });
  });
});
