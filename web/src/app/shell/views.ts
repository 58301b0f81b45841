/** Kept apart from the navigation so the sign-in screen loads no icons. */

/** Where a signed-in person lands. */
export const HOME = '/bidders';
