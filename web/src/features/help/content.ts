/** What Help says about Lotwise. Answers describe how the product works; keep them true. */

export interface Faq {
  question: string;
  answer: string;
}

export interface FaqCategory {
  id: string;
  title: string;
  faqs: Faq[];
}

export const faqCategories: FaqCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    faqs: [
      {
        question: 'What is Lotwise?',
        answer:
          'Lotwise is the back office for auction houses: vetting bidders with the Lotwise Score and your own custom score, running auctions imported from bidding platforms, tracking legal cases, and managing inventory, payments, imports and your team in one place.',
      },
      {
        question: 'How do I invite my colleagues?',
        answer:
          'Open Security & Users, then Users, and choose Invite User. Enter their email and a role (Administrator, Staff Member or Viewer). They receive an email with a link that works once, for seven days; following it creates their sign-in and adds them to your account with that role.',
      },
      {
        question: 'I work for more than one auction house. How do I switch?',
        answer:
          'If your sign-in belongs to several accounts, Lotwise asks which one to open when you sign in. You can switch at any time with Switch account on the banner under the header. Within one account, the banner shows your role in each house.',
      },
      {
        question: 'Can I use Lotwise on my phone?',
        answer:
          'Yes. On small screens the navigation moves into the menu at the top left and tables become cards, so everything works on a phone or tablet.',
      },
    ],
  },
  {
    id: 'bidder-management',
    title: 'Bidder Management',
    faqs: [
      {
        question: 'What does a bidder record hold?',
        answer:
          'Contact details, the bidder ID your platforms use, payment and bidding history, notes from your staff (private to your house), and two scores: the standardized Lotwise Score and the custom score your house configures.',
      },
      {
        question: 'How are duplicate bidders found?',
        answer:
          'When bidders are added or imported, Lotwise compares them with your existing bidders by email, phone number and name with postcode, and scores how likely two records are the same person. Very close matches merge automatically; the rest wait for your review on the Duplicates tab, where you choose the value to keep for each conflicting field.',
      },
      {
        question: 'Can I import my existing bidder list?',
        answer:
          'Yes. Import accepts CSV, Excel (.xlsx, .xls) and JSON files up to 10 MB. Each row is checked on its own: good rows are imported and scored, duplicates are flagged, and any row with a problem is reported with its row number and field, without stopping the others.',
      },
    ],
  },
  {
    id: 'auction-management',
    title: 'Auction Management',
    faqs: [
      {
        question: 'Which bidding platforms can I import auctions from?',
        answer:
          'Auctions are imported from the bidding platforms you connect under Account Settings, on the APIs tab. Each connection shows its status and last sync; you choose how often to sync and how duplicates and conflicts are handled on the Sync tab.',
      },
      {
        question: 'How do auto-invites work?',
        answer:
          'Your automation rules compare each bidder’s score with your thresholds: bidders at or above the auto-invite threshold are invited automatically, those below the auto-deny threshold are declined, and everyone between waits for manual review.',
      },
    ],
  },
  {
    id: 'legal',
    title: 'Legal Case Management',
    faqs: [
      {
        question: 'How do legal cases move through the workflow?',
        answer:
          'A case is filed, reviewed, investigated and then resolved, settled, dismissed or closed. Lotwise records every status change on the case timeline, moves submitted cases into review after 24 hours, reminds the assignee after 30 days without activity, and closes dismissed cases after 30 days.',
      },
      {
        question: 'Who must approve a settlement?',
        answer:
          'Settlements above $50,000 need a director’s approval before the case can be settled.',
      },
      {
        question: 'Where are case documents kept?',
        answer:
          'Documents you attach to a case are stored securely with the case and listed on it with their type (filing, evidence, correspondence, expert opinion and so on). Only people in your account with access to legal cases can see them.',
      },
    ],
  },
  {
    id: 'scoring',
    title: 'Scoring Systems',
    faqs: [
      {
        question: 'What is the Lotwise Score?',
        answer:
          'A standardized score from 0 to 100 computed the same way for every auction house from the bidder’s own record: payment history and speed, prior defaults, bidding activity and recency, wins, spending, account age, responsiveness, disputes and referrals. It is read-only. Tiers: Premium from 90, Gold from 80, Silver from 70, Bronze from 60, and New below that.',
      },
      {
        question: 'How is my custom score different?',
        answer:
          'Your house sets its own weights for the same factors (each 0 to 50, together 100) and its own tier thresholds. Saving new weights recalculates every bidder’s custom score in the background, with progress shown.',
      },
      {
        question: 'When are scores recalculated?',
        answer:
          'Whenever a bidder’s data changes, including after each auction they take part in completes.',
      },
    ],
  },
  {
    id: 'data-security',
    title: 'Data & Security',
    faqs: [
      {
        question: 'How is access controlled?',
        answer:
          'Access is role-based. The account owner holds every permission; administrators manage operations and users except critical system changes; staff members run auctions, bidders, inventory and basic legal work; viewers have read-only access with basic reports. Roles are managed under Security & Users.',
      },
      {
        question: 'Should I turn on two-factor authentication?',
        answer:
          'Yes. Under Security & Users, My Security, add an authenticator app (recommended), text message or email codes. You also get ten backup codes, each usable once. Owners and administrators can require it for chosen roles under MFA Policy.',
      },
      {
        question: 'How do I sign out of other devices?',
        answer:
          'Open your profile from the avatar at the top right and choose Active sessions. You can sign out any single session or every session except the one you are using. Changing your password also signs out your other sessions.',
      },
      {
        question: 'Can other auction houses see my data?',
        answer:
          'No. Every record belongs to one account, and every request is checked against the account of the person making it. Sharing with the national Lotwise Score uses only the standardized figures it needs.',
      },
    ],
  },
];

export interface Guide {
  id: string;
  title: string;
  summary: string;
  topics: string[];
  /** The view the guide is about. */
  path: string;
}

export const guides: Guide[] = [
  {
    id: 'bidders',
    title: 'Bidder Management',
    summary: 'Vet bidders with two scores and keep one clean record per person.',
    topics: [
      'Adding and importing bidders',
      'Reading the Lotwise and custom scores',
      'Reviewing and merging duplicates',
      'Sending invitations',
    ],
    path: '/bidders',
  },
  {
    id: 'auctions',
    title: 'Auction Setup',
    summary: 'Bring auctions in from your platforms and decide who may bid.',
    topics: [
      'Connecting a bidding platform',
      'Importing and syncing auctions',
      'Auto-invite and auto-deny rules',
      'Assessing registered bidders',
    ],
    path: '/auctions',
  },
  {
    id: 'legal',
    title: 'Legal Case Workflow',
    summary: 'File disputes, track them to resolution and keep every document together.',
    topics: [
      'Filing a new case',
      'Statuses and automatic steps',
      'Notes, documents and action items',
      'Settlement approval',
    ],
    path: '/legal',
  },
  {
    id: 'data',
    title: 'Data Import & Processing',
    summary: 'Upload your files and resolve what does not match.',
    topics: [
      'Supported formats and limits',
      'Mapping columns',
      'Resolving conflicts',
      'Upload history and downloads',
    ],
    path: '/data-upload',
  },
];

/** Case-insensitive search over questions and answers. */
export function searchFaqs(query: string): FaqCategory[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return faqCategories;
  return faqCategories
    .map((category) => ({
      ...category,
      faqs: category.faqs.filter(
        (faq) =>
          faq.question.toLowerCase().includes(needle) || faq.answer.toLowerCase().includes(needle),
      ),
    }))
    .filter((category) => category.faqs.length > 0);
}
