import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { guides } from '../features/help/content';
import { routes } from './routes';
import { FEATURE_FALLBACK, HOME } from './shell/views';

/** The route that answers an address, or nothing when only the catch-all "not found" does. */
function served(path: string) {
  const route = matchRoutes(routes, path)?.at(-1)?.route;
  return route && route.path !== '*' ? route : undefined;
}

describe('the routes', () => {
  it('answer unknown addresses with the catch-all, so the check below can tell', () => {
    expect(served('/no-such-screen')).toBeUndefined();
    expect(served('/bidders')?.path).toBe('bidders/:tab?');
  });

  it('land a signed-in person on the dashboard, the spec’s first view', () => {
    expect(HOME).toBe('/dashboard');
    expect(served(HOME)?.path).toBe('dashboard');
    const index = matchRoutes(routes, '/')?.at(-1)?.route;
    expect(index?.index).toBe(true);
    expect(index?.element).toMatchObject({ props: { to: HOME } });
  });

  it('fall back to bidders for a view the account lacks, as the spec has it', () => {
    expect(served(FEATURE_FALLBACK)?.path).toBe('bidders/:tab?');
  });

  it('serve the auction lists by name before taking a segment for an auction id', () => {
    expect(served('/auctions/current')?.path).toBe('auctions/current');
    expect(served('/auctions/upcoming')?.path).toBe('auctions/upcoming');
    expect(served('/auctions/past')?.path).toBe('auctions/past');
    expect(served('/auctions/new')?.path).toBe('auctions/new');
    expect(served('/auctions/a-1')?.path).toBe('auctions/:auctionId');
    expect(served('/auctions/a-1/lots')?.path).toBe('auctions/:auctionId/lots');
    expect(served('/auctions/a-1/registrations')?.path).toBe('auctions/:auctionId/registrations');
    expect(served('/auctions/a-1/edit')?.path).toBe('auctions/:auctionId/edit');
    expect(served('/auctions/a-1/assessment')?.path).toBe('auctions/:auctionId/assessment');
  });

  it('serve the legal lists by name before taking a segment for a case id', () => {
    expect(served('/legal')?.path).toBe('legal');
    expect(served('/legal/cases')?.path).toBe('legal/cases');
    expect(served('/legal/active')?.path).toBe('legal/active');
    expect(served('/legal/analytics')?.path).toBe('legal/analytics');
    expect(served('/legal/cases/new')?.path).toBe('legal/cases/new');
    expect(served('/legal/cases/c-1')?.path).toBe('legal/cases/:caseId/:tab?');
    expect(served('/legal/cases/c-1/workflow')?.path).toBe('legal/cases/:caseId/:tab?');
  });

  it.each(guides.map((guide) => [guide.title, guide.path]))(
    'serve the screen Help’s %s guide leads to (%s)',
    (_title, path) => {
      expect(served(path), path).toBeDefined();
    },
  );
});
