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
          'Lotwise is the back office for auction houses. It runs your auctions, from the catalogue through registration and approval to the clerked results, and keeps your bidders: one record per person, vetted with the standardized Lotwise Score and a custom score your house configures, with duplicates found for you and your existing lists imported from files. Your team signs in with its own roles and two-factor authentication.',
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
          'Yes: choose Import on Bidder Management. It reads CSV, Excel (.xlsx) and JSON files up to 10 MB; save older .xls workbooks as .xlsx first. Columns are matched to bidder fields by their headings, and a CSV template is offered to start from. Each row is checked on its own: good rows are imported and scored, duplicates are flagged, and any row with a problem is reported with its row number and field, without stopping the others.',
      },
      {
        question: 'How do I invite a bidder to bid?',
        answer:
          'Choose Send Invite from the bidder’s row menu. The bidder receives an invitation by email, with your message if you add one, and their profile records each invitation sent.',
      },
    ],
  },
  {
    id: 'auction-management',
    title: 'Auction Management',
    faqs: [
      {
        question: 'How do I set up an auction?',
        answer:
          'Choose Create Auction on Auction Management and fill in its sections: the basics, dates and times in your house’s time zone, descriptions, buyer’s premium and currency, registration requirements, payment methods, bidding increments and deposits, shipping options and terms. A new auction is a Draft, listed under Upcoming Auctions, until you publish it.',
      },
      {
        question: 'What are the stages of an auction?',
        answer:
          'Draft, then Upcoming once published, Active once it goes live (by itself at its start time, or with Go Live), and Completed once closed. An upcoming or active auction can be cancelled with a reason. Completed and cancelled auctions are final and listed under Past Auctions. Edit Auction offers only the moves the auction can make.',
      },
      {
        question: 'Can I import a catalogue?',
        answer:
          'Yes. On the auction’s Lots tab choose Import Catalogue and pick a CSV or Excel (.xlsx) file with one lot per row: lot number, title, description, category, estimates, reserve and consignor, with amounts in whole currency units. A lot number already in the auction updates that lot, and any row with a problem is listed with its row number and field while the others are imported.',
      },
      {
        question: 'How are registrations approved?',
        answer:
          'When a bidder registers, your scoring rules decide at once: approved, pending review, or denied, with the reasons written down. Pending registrations wait on the Registrations tab beside the bidder’s scores and record (payment rate, average hammer, total paid, open disputes, prior defaults), for someone to approve or deny with a reason. Each approved bidder has a bid limit from their tier, which staff can change with a reason; bidders approved with a limit are listed apart.',
      },
      {
        question: 'How do I record the results of a sale?',
        answer:
          'While the auction is live, choose Clerk Sale on its Lots tab. Type each lot’s hammer price and the buyer’s paddle or bidder ID, or tick Passed, and press Enter to save it and move to the next lot. Closing the auction needs every lot clerked. A result changed afterwards asks for a reason, and the correction is kept in the audit log.',
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
          'Your house sets its own weights for the same factors (each 0 to 50, together 100) and its own tier thresholds in Score Settings. Saving new weights recalculates every bidder’s custom score in the background, with progress shown.',
      },
      {
        question: 'What do Auto-Invite, Manual Review and Auto-Deny mean?',
        answer:
          'They are what your automation rules make of each bidder’s custom score. Auto-Deny: below your deny threshold on a real record, or with disputes or payment defaults when you check for them. Auto-Invite: at or above your invite threshold, with a clean payment record and your minimum tier when you require them. Everyone else is Manual Review, including a bidder with no record yet: they start at a neutral 50 in Bronze. Set the rules on the Scoring tab of Account Settings or in Score Settings, on the Automation Rules tab; both show the same bands.',
      },
      {
        question: 'When are scores recalculated?',
        answer:
          'Whenever a bidder’s data changes (when they are added, edited, imported or merged), for every bidder who took part when an auction closes, and for every bidder when your house saves new custom weights, tiers or rules.',
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
          'Access is role-based. The account owner holds every permission; administrators manage operations and users except critical system changes; staff members work with bidders day to day; viewers have read-only access with basic reports. Roles are managed under Security & Users.',
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
          'No. Every record belongs to one account, and every request is checked against the account of the person making it. Both scores are computed from the bidder’s record in your account alone.',
      },
    ],
  },
];

export interface Guide {
  id: string;
  title: string;
  summary: string;
  topics: string[];
  /** The screen the guide is about; a route the app serves (routes.test.ts checks). */
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
    summary: 'Create an auction, build its catalogue, approve its bidders and clerk the sale.',
    topics: [
      'Creating an auction and publishing it',
      'Importing a catalogue of lots',
      'Approving registrations and setting bid limits',
      'Clerking results and closing the sale',
    ],
    path: '/auctions',
  },
  {
    id: 'scoring',
    title: 'Bidder Scoring',
    summary: 'Decide how your house weighs a bidder, and what happens at each score.',
    topics: [
      'Custom weights and tier thresholds',
      'Auto-invite and auto-deny rules',
      'How a bidder with no record yet is scored',
      'Recalculating every bidder',
    ],
    path: '/settings/bidder-scoring',
  },
  {
    id: 'team',
    title: 'Team & Security',
    summary: 'Bring your colleagues in with the right role, and keep sign-ins safe.',
    topics: [
      'Inviting colleagues and choosing roles',
      'Two-factor authentication and backup codes',
      'Requiring two-factor by role',
      'Signing out other sessions',
    ],
    path: '/security',
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
