/** Kept apart from the navigation so the sign-in screen loads no icons. */

/** Where a signed-in person lands: the dashboard, the spec's first view. */
export const HOME = '/dashboard';

/** Spec 2: Inventory or Payments opened without the feature falls back to bidders. */
export const FEATURE_FALLBACK = '/bidders';
