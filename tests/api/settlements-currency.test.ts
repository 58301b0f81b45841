import { beforeAll, describe, expect, it } from 'vitest';
import type { Agreement } from '../../functions/src/payments/settlements/settlements.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { codeOf, domain, fieldsOf, type Owner } from '../support/bidders.js';
import { call, ifMatch } from '../support/identity.js';

const fees = { perLot: 250, insuranceBps: 0, buyBackBps: 0 };
const commission = { kind: 'fixed', rateBps: 1500, minimumPerLot: 1_000 };

let dollars: Owner;
let loonies: Owner;

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

beforeAll(async () => {
  [dollars, loonies] = await Promise.all([ownerWithAddOns(), ownerWithAddOns()]);
  // The account's currency is its first house's: this one trades in Canadian dollars.
  await ok(
    call('POST', '/accounts/current/auction-houses', {
      token: loonies.token,
      body: { name: 'North', businessName: 'North Ltd', city: 'Toronto', currency: 'CAD' },
    }),
    201,
  );
});

describe("consignor agreements' currency", () => {
  it("is the account's until said otherwise: US dollars for an account without houses", async () => {
    const fallback = await ok(
      domain<Agreement>('GET', '/consignor-agreements/default', { token: dollars.token }),
    );
    expect(fallback.currency).toBe('USD');
    const listed = await ok(
      domain<{ currency: string }>('GET', '/consignor-agreements', { token: dollars.token }),
    );
    expect(listed.currency).toBe('USD');
  });

  it("keeps a new agreement in the account's currency and reads it back", async () => {
    const fallback = await ok(
      domain<Agreement>('GET', '/consignor-agreements/default', { token: loonies.token }),
    );
    expect(fallback.currency).toBe('CAD');
    const created = await ok(
      domain<Agreement>('POST', '/consignor-agreements', {
        token: loonies.token,
        body: { consignorName: 'Maple Estate', commission, fees },
      }),
      201,
    );
    expect(created).toMatchObject({ currency: 'CAD', commission, fees });
    const read = await ok(
      domain<Agreement>('GET', `/consignor-agreements/${created.id}`, { token: loonies.token }),
    );
    expect(read.currency).toBe('CAD');
    const listed = await ok(
      domain<{ currency: string; agreements: Agreement[] }>(
        'GET',
        '/consignor-agreements?limit=200',
        { token: loonies.token },
      ),
    );
    expect(listed.currency).toBe('CAD');
    expect(listed.agreements.find((one) => one.id === created.id)?.currency).toBe('CAD');
  });

  it('takes the currency it is given, and keeps it when an update leaves it out', async () => {
    const created = await ok(
      domain<Agreement>('POST', '/consignor-agreements', {
        token: loonies.token,
        body: { consignorName: 'Edo Prints', currency: 'JPY', commission, fees },
      }),
      201,
    );
    expect(created.currency).toBe('JPY');
    const path = `/consignor-agreements/${created.id}`;
    const changed = await ok(
      domain<Agreement>('PUT', path, {
        token: loonies.token,
        body: { consignorName: 'Edo Prints', commission: { kind: 'none' }, fees },
        headers: ifMatch(created.etag),
      }),
    );
    expect(changed.currency).toBe('JPY');
    const moved = await ok(
      domain<Agreement>('PUT', path, {
        token: loonies.token,
        body: { consignorName: 'Edo Prints', currency: 'EUR', commission, fees },
        headers: ifMatch(changed.etag),
      }),
    );
    expect(moved.currency).toBe('EUR');
    expect((await ok(domain<Agreement>('GET', path, { token: loonies.token }))).currency).toBe(
      'EUR',
    );
  });

  it("saves the default's currency with its terms", async () => {
    const fresh = await ok(
      domain<Agreement>('GET', '/consignor-agreements/default', { token: dollars.token }),
    );
    const saved = await ok(
      domain<Agreement>('PUT', '/consignor-agreements/default', {
        token: dollars.token,
        body: { currency: 'GBP', commission, fees, payoutDetails: '' },
        headers: ifMatch(fresh.etag),
      }),
    );
    expect(saved).toMatchObject({ currency: 'GBP', commission });
    const again = await ok(
      domain<Agreement>('GET', '/consignor-agreements/default', { token: dollars.token }),
    );
    expect(again).toMatchObject({ currency: 'GBP', etag: saved.etag });
  });

  it('refuses a currency the services do not keep money in, naming the field', async () => {
    const reply = await domain('POST', '/consignor-agreements', {
      token: loonies.token,
      body: { consignorName: 'Nowhere', currency: 'XYZ', commission, fees },
    });
    expect(reply.status).toBe(400);
    expect(codeOf(reply)).toBe('validation_failed');
    expect(fieldsOf(reply)).toEqual(['currency']);
  });
});
