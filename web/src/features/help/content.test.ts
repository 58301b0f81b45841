import { describe, expect, it } from 'vitest';
import { faqCategories, searchFaqs } from './content';

describe('Help FAQ search', () => {
  // The spec's six, less Legal Case Management: it returns with its feature, so that Help
  // describes only what Lotwise does.
  it('has the categories of the features that exist', () => {
    expect(faqCategories.map((category) => category.title)).toEqual([
      'Getting Started',
      'Bidder Management',
      'Auction Management',
      'Scoring Systems',
      'Data & Security',
    ]);
  });

  it('matches questions and answers case-insensitively', () => {
    const byQuestion = searchFaqs('TWO-FACTOR');
    expect(byQuestion.flatMap((category) => category.faqs.map((faq) => faq.question))).toContain(
      'Should I turn on two-factor authentication?',
    );
    const byAnswer = searchFaqs('POSTCODE');
    expect(byAnswer).toHaveLength(1);
    expect(byAnswer[0]?.title).toBe('Bidder Management');
  });

  it('returns nothing for no match and everything for no query', () => {
    expect(searchFaqs('zzzz-no-such-thing')).toEqual([]);
    expect(searchFaqs('  ')).toBe(faqCategories);
  });
});
