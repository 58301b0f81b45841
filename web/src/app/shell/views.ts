/** Which views exist; kept apart from the navigation so the sign-in screen loads no icons. */

/** Where a signed-in person lands. */
export const HOME = '/bidders';

/** Top-level views whose screens exist; links to others (such as guides' "Go to Feature") hide. */
const builtViews = new Set([
  '/bidders',
  '/help',
  '/security',
  '/settings',
  '/profile',
  '/inventory',
  '/payments',
]);

export const viewExists = (path: string) => builtViews.has(`/${path.split('/')[1] ?? ''}`);
