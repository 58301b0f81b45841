import type { Platform } from '../../src/auctions/auctions.schema.js';
import type { PlatformBidder } from '../../src/integrations/connectors/connector.js';
import type {
  AccountInput,
  AccountSummary,
  AuctionChanges,
  BidderChanges,
  FaultsInput,
  LotChanges,
  NewBidder,
  RegistrationInput,
} from './control.js';
import type { PushRecord } from './model.js';
import { platformSlugs } from './store.js';
import type { AuctionView, accountView } from './views.js';

/**
 * A typed client of the sandbox's control API (`/__sandbox/`), for tests and benchmarks: it talks
 * HTTP like any other client, so it works against a sandbox in this process or in a stack's.
 */

export type AccountSnapshot = ReturnType<typeof accountView>;

export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxControlError';
  }
}

export function sandboxControl(sandboxUrl: string) {
  const root = `${sandboxUrl.replace(/\/+$/, '')}/__sandbox`;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${root}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new SandboxControlError(
        response.status,
        `${method} ${path}: ${response.status} ${text}`,
      );
    return JSON.parse(text) as T;
  }
  const account = (key: string) => `/accounts/${encodeURIComponent(key)}`;

  return {
    url: sandboxUrl,
    /** A new account on a platform with a generated key, seeded with the sizes asked for. */
    createAccount: (input: AccountInput) => call<AccountSummary>('POST', '/accounts', input),
    /** Everything the account holds, in the connector's shapes (with each auction's registrations). */
    account: (key: string) => call<AccountSnapshot>('GET', account(key)),
    setFaults: (key: string, faults: FaultsInput) =>
      call<{ faults: FaultsInput }>('PUT', `${account(key)}/faults`, faults),
    clearFaults: (key: string) => call<{ faults: FaultsInput }>('DELETE', `${account(key)}/faults`),
    changeAuction: (key: string, auctionId: string, changes: AuctionChanges) =>
      call<AuctionView>(
        'PATCH',
        `${account(key)}/auctions/${encodeURIComponent(auctionId)}`,
        changes,
      ),
    changeLot: (key: string, auctionId: string, lotId: string, changes: LotChanges) =>
      call<AuctionView>(
        'PATCH',
        `${account(key)}/auctions/${encodeURIComponent(auctionId)}/lots/${encodeURIComponent(lotId)}`,
        changes,
      ),
    register: (key: string, auctionId: string, registration: RegistrationInput) =>
      call<AuctionView>(
        'POST',
        `${account(key)}/auctions/${encodeURIComponent(auctionId)}/registrations`,
        registration,
      ),
    addBidder: (key: string, bidder: NewBidder) =>
      call<PlatformBidder>('POST', `${account(key)}/bidders`, bidder),
    changeBidder: (key: string, bidderId: string, changes: BidderChanges) =>
      call<PlatformBidder>(
        'PATCH',
        `${account(key)}/bidders/${encodeURIComponent(bidderId)}`,
        changes,
      ),
    /** What Lotwise pushed to the account, each body exactly as the platform received it. */
    pushed: async (key: string) =>
      (await call<{ pushed: PushRecord[] }>('GET', `${account(key)}/pushed`)).pushed,
    /** The account seeded again from its options; its changes, pushes and faults are gone. */
    resetAccount: (key: string) => call<AccountSummary>('POST', `${account(key)}/reset`),
    /** Every account back to the seeded demo accounts. */
    reset: () => call<{ accounts: number }>('POST', '/reset'),
    /** A platform's bidder or catalogue export of the account, as the house would download it. */
    async exportFile(
      platform: Platform,
      kind: 'bidders' | 'catalogue',
      format: 'csv' | 'xlsx',
      key: string,
      auctionId?: string,
    ): Promise<{ name: string; bytes: Buffer }> {
      const query = new URLSearchParams({ key, ...(auctionId ? { auction: auctionId } : {}) });
      const response = await fetch(
        `${root}/${platformSlugs[platform]}/export/${kind}.${format}?${query}`,
      );
      if (!response.ok) {
        throw new SandboxControlError(
          response.status,
          `export ${kind}.${format}: ${response.status} ${await response.text()}`,
        );
      }
      return {
        name: `${platformSlugs[platform]}-${kind}.${format}`,
        bytes: Buffer.from(await response.arrayBuffer()),
      };
    },
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;
