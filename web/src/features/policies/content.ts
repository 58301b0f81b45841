/**
 * The Terms of Service and the Privacy Policy, as data: one page component shows either, and a
 * change of wording is a change here alone. Keep them true to what Lotwise does.
 */

export interface PolicySection {
  heading: string;
  paragraphs: string[];
  /** A list after the paragraphs. */
  points?: string[];
}

export interface Policy {
  /** The page's address, e.g. `/terms`. */
  path: string;
  title: string;
  updated: string;
  summary: string;
  sections: PolicySection[];
}

const SUPPORT_EMAIL = 'support@lotwise.app';

export const termsOfService: Policy = {
  path: '/terms',
  title: 'Terms of Service',
  updated: '24 November 2026',
  summary:
    'These terms govern how your auction house uses Lotwise. In short: your data stays yours, you use Lotwise lawfully and keep your sign-ins safe, scores support your decisions rather than make them, and either of us can end the agreement.',
  sections: [
    {
      heading: '1. About these terms',
      paragraphs: [
        'These Terms of Service are an agreement between Lotwise ("we", "us") and the organisation that opens a Lotwise account ("you"), such as an auction house or a group of auction houses. The person who creates the account confirms that they may accept these terms for that organisation.',
        'Everyone who signs in to your account (owners, administrators, staff members and viewers) uses Lotwise under these terms, and you are responsible for making sure they follow them.',
      ],
    },
    {
      heading: '2. Your account and your team',
      paragraphs: [
        'The account owner decides who joins the account and with which role, and can change or remove access at any time under Security & Users.',
        'Keep sign-in details confidential, use two-factor authentication where your account requires it, and tell us promptly at the address below if you believe someone has used your account without permission. You are responsible for what is done under your account by the people you let in.',
      ],
    },
    {
      heading: '3. Your data',
      paragraphs: [
        'Everything you put into Lotwise, such as bidder records, notes, bidding and payment history, and the files you import, is your data. You own it.',
        'You allow us to store, process and display your data only to provide Lotwise to you, to support you, and to keep the service secure, as our Privacy Policy describes. We do not sell your data, and we never use one account’s data for another account.',
        'You can ask for a copy of your data at any time, and we will provide it in a common format such as CSV.',
      ],
    },
    {
      heading: '4. Bidders’ personal information',
      paragraphs: [
        'You decide which bidders’ information you keep in Lotwise and why. You are responsible for having a lawful basis for it, for telling your bidders how you use their information (for example in your own privacy notice and conditions of sale), and for answering their requests. For this information we act on your instructions, as your processor, and we help you meet those requests.',
      ],
    },
    {
      heading: '5. Scores and suggestions',
      paragraphs: [
        'The Lotwise Score, your custom score, tiers, auto-invite statuses and possible duplicates are calculated from the records in your account. They help you judge; they are not guarantees of how a bidder will behave, and they are not decisions.',
        'You remain responsible for whom you register, invite, decline or merge, and for following any law on fair treatment or automated decision-making that applies to you.',
      ],
    },
    {
      heading: '6. Acceptable use',
      paragraphs: ['When you use Lotwise, you agree not to:'],
      points: [
        'break the law, or use Lotwise to discriminate unlawfully against bidders;',
        'upload information you have no right to use, or files containing malicious code;',
        'try to reach another account’s data, or to get around sign-in, roles or limits;',
        'test, scan or overload the service without our written agreement;',
        'copy, resell or rebuild Lotwise, or collect its content by automated means.',
      ],
    },
    {
      heading: '7. Plans and fees',
      paragraphs: [
        'Lotwise has a free plan and paid plans and add-ons. The price and what is included are shown before you choose a paid option; we then invoice in advance for each billing period. Prices exclude taxes.',
        'We give account owners at least 30 days’ notice before a price change applies to them.',
      ],
    },
    {
      heading: '8. Availability and support',
      paragraphs: [
        'We work to keep Lotwise available around the clock and to put problems right quickly. Planned maintenance is announced in advance where we can.',
        `Support is by email at ${SUPPORT_EMAIL} (we reply within 24 hours) and by phone Monday to Friday, 9 AM to 6 PM Eastern time.`,
      ],
    },
    {
      heading: '9. Security and confidentiality',
      paragraphs: [
        'We protect your data with encryption in transit and at rest, hashed passwords, two-factor authentication, permissions checked on every request, and an audit trail of changes.',
        'Each of us keeps the other’s confidential information confidential and uses it only for this agreement.',
      ],
    },
    {
      heading: '10. Ending the agreement',
      paragraphs: [
        'You can close your account at any time by writing to us; a paid plan runs to the end of the period already paid for.',
        'We may suspend or end access if these terms are seriously broken and the breach is not put right within 14 days of our notice, or at once where that is needed to prevent harm or to obey the law.',
        'After an account closes we keep its data for 30 days, so that you can ask for a copy, and then delete it, except for records the law requires us to keep.',
      ],
    },
    {
      heading: '11. Warranties and liability',
      paragraphs: [
        'We provide Lotwise with reasonable skill and care. Beyond that, and as far as the law allows, it is provided as it is, without other warranties.',
        'Neither of us is liable for indirect or consequential loss, or for lost profits. Our total liability in any 12 months is limited to the fees you paid us in those 12 months. Nothing in these terms limits liability that the law does not allow to be limited.',
      ],
    },
    {
      heading: '12. Changes to these terms',
      paragraphs: [
        'We may update these terms as Lotwise changes. We tell account owners about material changes by email or in the app at least 30 days before they apply; using Lotwise after that date means accepting them.',
      ],
    },
    {
      heading: '13. Contact',
      paragraphs: [`Questions about these terms: ${SUPPORT_EMAIL}.`],
    },
  ],
};

export const privacyPolicy: Policy = {
  path: '/privacy',
  title: 'Privacy Policy',
  updated: '24 November 2026',
  summary:
    'This policy explains what personal information Lotwise handles, why, and the choices you have. It concerns two groups of people: the auction-house staff who use Lotwise, and the bidders whose records auction houses keep in it.',
  sections: [
    {
      heading: '1. Who is responsible',
      paragraphs: [
        'For information about the people who use Lotwise (their sign-in, profile and activity), Lotwise is responsible, as controller.',
        'For bidder records and everything else an auction house keeps in Lotwise, the auction house is the controller. We process that information on its behalf and only on its instructions. If you are a bidder, please contact the auction house first; we will help it answer you.',
      ],
    },
    {
      heading: '2. What we collect about users',
      paragraphs: ['When you use Lotwise, we handle:'],
      points: [
        'Account details: your name, email address, optional phone number, timezone and language.',
        'Sign-in and security data: your password (stored only as a salted hash, never in readable form), your two-factor methods, hashed backup codes, and your sessions with their device, address and times.',
        'Activity: a record of the changes you make to your account’s data, and the support requests you send.',
        'Choices: whether you accepted these policies, and whether you want product news by email.',
      ],
    },
    {
      heading: '3. What auction houses keep about bidders',
      paragraphs: [
        'Auction houses keep bidders’ contact details and addresses, bidding and payment history, staff notes, scores and possible duplicates in Lotwise. Each account’s records are kept apart from every other account’s, and notes are visible only within the house that wrote them.',
      ],
    },
    {
      heading: '4. How we use information',
      paragraphs: [],
      points: [
        'To provide Lotwise: signing you in, showing and saving your account’s data, calculating scores, importing files and sending the emails and text messages you ask for, such as invitations and verification codes (performance of our contract).',
        'To keep Lotwise secure: limiting repeated sign-in attempts, spotting unusual activity and keeping an audit trail (our legitimate interest in a secure service).',
        'To support you and to tell you about changes to the service (contract and legitimate interest).',
        'To send product news, only if you opted in; you can opt out at any time (consent).',
        'To meet legal obligations, such as keeping invoices.',
      ],
    },
    {
      heading: '5. Who we share it with',
      paragraphs: [
        'We never sell personal information and do not use it for advertising. We share it only with the providers that run parts of Lotwise for us, under contracts that bind them to our instructions:',
      ],
      points: [
        'Microsoft Azure, which hosts Lotwise and its data;',
        'Azure Communication Services, which delivers our emails and text messages;',
        'Stripe, which processes payments for paid plans;',
        'Microsoft, when you choose to sign in with a Microsoft account.',
      ],
    },
    {
      heading: '6. Cookies and browser storage',
      paragraphs: [
        'Lotwise uses no advertising or tracking cookies. The app keeps your sign-in session, your account choice and your theme in your browser’s local storage, so that you stay signed in and see Lotwise as you left it. Signing out removes the sign-in data.',
      ],
    },
    {
      heading: '7. How long we keep it',
      paragraphs: [
        'We keep account information while the account is open. When an account closes, we delete its data within 30 days, except records the law requires us to keep, such as invoices. Sessions end when they expire, when you sign out, or when you revoke them under Your profile.',
      ],
    },
    {
      heading: '8. Security',
      paragraphs: [
        'Information is encrypted in transit and at rest. Passwords are hashed with Argon2id or scrypt, access is checked against the person’s role on every request, and two-factor authentication is open to everyone and can be required by account owners.',
      ],
    },
    {
      heading: '9. International transfers',
      paragraphs: [
        'Lotwise runs in Microsoft Azure data centres. Where personal information moves between countries, we rely on recognised safeguards such as the European Commission’s Standard Contractual Clauses.',
      ],
    },
    {
      heading: '10. Your rights',
      paragraphs: [
        'You may ask to see, correct, export or delete your personal information, to restrict or object to how we use it, and to withdraw consent you gave. You can change most of your details yourself under Your profile; for anything else, write to us. You may also complain to your data protection authority.',
      ],
    },
    {
      heading: '11. Children',
      paragraphs: ['Lotwise is a tool for businesses and is not meant for anyone under 16.'],
    },
    {
      heading: '12. Changes to this policy',
      paragraphs: [
        'When we change this policy, we update the date above and tell account owners about material changes by email or in the app before they apply.',
      ],
    },
    {
      heading: '13. Contact',
      paragraphs: [
        `Privacy questions and requests: ${SUPPORT_EMAIL}, with “Privacy” in the subject.`,
      ],
    },
  ],
};
