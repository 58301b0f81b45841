/** Who the demo tenant's people are; `npm start` prints them. */

/** The password of every demo user; printed by `npm start`. */
export const DEMO_PASSWORD = 'Harborview!Demo2026';

export const demoUsers = [
  { email: 'owner@harborview.demo', firstName: 'Olivia', lastName: 'Hart', role: 'owner' },
  { email: 'admin@harborview.demo', firstName: 'Adam', lastName: 'Reyes', role: 'admin' },
  { email: 'staff@harborview.demo', firstName: 'Sam', lastName: 'Okafor', role: 'staff' },
  { email: 'viewer@harborview.demo', firstName: 'Vera', lastName: 'Lindqvist', role: 'viewer' },
] as const;

export { DEMO_ACCOUNT_NAME } from '../../src/sandbox/demo-tenant.js';
export const SECOND_ACCOUNT_NAME = 'Lakeside Auction Gallery';
