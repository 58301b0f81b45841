/**
 * The reliability suite runs against a stack of its own, started exactly as the API tests start
 * theirs (the seeded demo tenant, the dev outbox, a fake Microsoft sign-in), so what it does to
 * the data never reaches another suite.
 */
export { default } from '../api/global-setup.js';
