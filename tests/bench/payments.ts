import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { TransactionRecord } from '../../functions/src/payments/payments.repo.js';
import { startTestStack, type TestStack } from '../support/test-stack.js';
import { writeAll } from './auctions.js';
import { agent, cosmosFor, json, newOwner } from './client.js';
import { round, summarise } from './stats.js';

/**
 * Figures for payments on a throw-away stack:
 *  (a) the buyer invoices of a closed auction of 2,000 lots won by 500 buyers
 *      (`invoicesAfterClose` in this process; the lots written through the auctions services);
 *  (b) GET /exports/transactions?format=xlsx over 50,000 transactions: time, size and the dev
 *      host's memory while it streams the workbook;
 *  (c) the consignor settlements of that auction (10 consignors of 200 lots, every buyer paid)
 *      and one consignor's statement PDF.
 * `npm run bench -- payments`, or alone: `tsx tests/bench/payments.ts`.
 */

const LOTS = 2_000;
const BUYERS = 500;
const CONSIGNORS = 10;
const TRANSACTIONS = 50_000;
const PDF_REQUESTS = 10;

const progress = (message: string) => process.stderr.write(`bench · payments: ${message}\n`);

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: field('VmRSS') / 1024, peakMb: field('VmHWM') / 1024 };
};

/** A GET whose body is only counted (and its first bytes kept), as a browser saves a download. */
function download(url: string, token: string) {
  const started = performance.now();
  return new Promise<{ status: number; bytes: number; head: string; ms: number; type: string }>(
    (resolve, reject) => {
      httpRequest(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        let bytes = 0;
        let head = '';
        response.on('data', (chunk: Buffer) => {
          if (bytes === 0) head = chunk.subarray(0, 5).toString('latin1');
          bytes += chunk.length;
        });
        response.once('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            bytes,
            head,
            ms: performance.now() - started,
            type: String(response.headers['content-type'] ?? ''),
          }),
        );
        response.once('error', reject);
      })
        .once('error', reject)
        .end();
    },
  );
}

/** Runs `work` over `items`, `width` at a time. */
async function inTurns<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

/** The functions' modules, imported once this process is pointed at the stack. */
async function services(testStack: TestStack) {
  Object.assign(process.env, testStack.settings);
  return {
    ...(await import('../../functions/src/identity/accounts/accounts.service.js')),
    ...(await import('../../functions/src/auctions/lots/catalogue-import.service.js')),
    ...(await import('../../functions/src/auctions/lots/lots.service.js')),
    ...(await import('../../functions/src/payments/payments.service.js')),
    ...(await import('../../functions/src/platform/context.js')),
  };
}

type Services = Awaited<ReturnType<typeof services>>;

async function addOns(modules: Services, accountId: string) {
  await modules.applyPlan(accountId, {
    tier: 'tier-3',
    addOns: { inventory: true, payments: true },
  });
}

/** (a) and (c): a sale of 2,000 lots to 500 buyers, its invoices, then its settlements. */
async function saleFigures(testStack: TestStack, modules: Services) {
  const owner = await newOwner(testStack, 'invoices');
  const base = testStack.stack.domainUrl;
  let token = await owner.token();
  const ctx = modules.systemContext(owner.accountId);

  progress(`creating ${BUYERS} buyers`);
  const buyers: { id: string; name: string; bidderId: string }[] = [];
  await inTurns(
    Array.from({ length: BUYERS }, (_, i) => i),
    8,
    async (i) => {
      const created = await json<{
        id: string;
        bidderId: string;
        firstName: string;
        lastName: string;
      }>('POST', `${base}/bidders`, {
        token,
        body: {
          firstName: `Buyer${i}`,
          lastName: 'Bench',
          email: `buyer-${i}-${randomUUID().slice(0, 6)}@example.com`,
          status: 'Active',
        },
      });
      buyers[i] = {
        id: created.id,
        bidderId: created.bidderId,
        name: `${created.firstName} ${created.lastName}`,
      };
    },
  );

  const houses = await json<{ houses: { id: string }[] }>(
    'GET',
    `${testStack.stack.authUrl}/accounts/current/auction-houses`,
    { token },
  );
  const auction = await json<{ id: string }>('POST', `${base}/auctions`, {
    token,
    body: {
      auctionHouseId: houses.houses[0]?.id ?? null,
      title: 'Bench Estate Sale',
      category: 'art',
      startDate: '2031-04-10',
      startTime: '18:00',
      endDate: '2031-04-10',
      endTime: '22:00',
      timeZone: 'America/New_York',
    },
  });
  progress(`writing ${LOTS} lots through the auctions services`);
  await modules.writeCatalogue(
    ctx,
    auction.id,
    Array.from({ length: LOTS }, (_, i) => ({
      row: i + 2,
      lot: {
        lotNumber: String(i + 1),
        title: `Lot ${i + 1}: a ${['chair', 'vase', 'clock', 'print', 'ring'][i % 5]}`,
        description: '',
        category: null,
        estimateLow: null,
        estimateHigh: null,
        reserve: null,
        consignor: { name: `Consignor ${i % CONSIGNORS}`, contact: '' },
        inventoryItemId: null,
      },
    })),
    new Set(['lotNumber', 'title', 'consignorName'] as const),
  );
  await json('POST', `${base}/auctions/${auction.id}/publish`, { token });
  await json('POST', `${base}/auctions/${auction.id}/go-live`, { token });

  // The clerk's results, written straight into the lots (the sale itself is not what is measured).
  progress('clerking the results');
  const lots = await modules.listLots(ctx, auction.id);
  const { client, auctions } = cosmosFor(testStack);
  const now = new Date().toISOString();
  const clerked = lots.map((lot, i) => {
    const buyer = buyers[i % BUYERS] as (typeof buyers)[number];
    const { _etag, _ts, ...stored } = lot;
    return {
      ...stored,
      result: {
        outcome: 'sold',
        hammer: 10_000 + ((i * 7919) % 500_000),
        buyerId: buyer.id,
        buyerBidderId: buyer.bidderId,
        buyerName: buyer.name,
        paddle: null,
        bidCount: 3,
        underbidders: [],
        recordedAt: now,
        recordedBy: 'bench',
      },
    };
  });
  let next = 0;
  while (next < clerked.length) {
    const batch = clerked.slice(next, next + 100);
    next += 100;
    await auctions.items.batch(
      batch.map((document) => ({
        operationType: 'Upsert' as const,
        resourceBody: document as unknown as Record<string, string>,
      })),
      owner.accountId,
    );
  }
  client.dispose();

  // Closed without the add-on, so the invoices are made below, on their own, timed.
  progress('closing the auction');
  await json('POST', `${base}/auctions/${auction.id}/close`, { token });
  await addOns(modules, owner.accountId);
  token = await owner.token();

  progress(`invoicing ${BUYERS} buyers`);
  const invoicing = performance.now();
  const made = await modules.invoicesAfterClose(ctx, auction.id);
  const invoiceSeconds = (performance.now() - invoicing) / 1000;

  progress('paying every invoice');
  const invoiceIds: { id: string; balance: number }[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await modules.listInvoices(ctx, {
      auctionId: auction.id,
      pageSize: 200,
      ...(continuationToken ? { continuationToken } : {}),
    });
    invoiceIds.push(...page.items.map((invoice) => ({ id: invoice.id, balance: invoice.balance })));
    continuationToken = page.continuationToken ?? undefined;
  } while (continuationToken);
  await inTurns(invoiceIds, 4, (invoice) =>
    modules.recordOfflinePayment(ctx, invoice.id, {
      amount: invoice.balance,
      method: 'Bank Transfer',
      reference: 'bench',
      notes: '',
    }),
  );

  progress('building the settlements');
  const building = performance.now();
  const built = await json<{
    created: number;
    statements: { id: string; consignorName: string }[];
  }>('POST', `${base}/auctions/${auction.id}/settlements`, { token });
  const buildSeconds = (performance.now() - building) / 1000;
  const rebuilding = performance.now();
  const again = await json<{ created: number; unchanged: number }>(
    'POST',
    `${base}/auctions/${auction.id}/settlements`,
    { token },
  );
  const rebuildSeconds = (performance.now() - rebuilding) / 1000;

  progress('downloading a statement PDF');
  const statement = built.statements[0] as { id: string; consignorName: string };
  const pdfs: number[] = [];
  let pdfBytes = 0;
  // The first one also loads the PDF library and its fonts into the host: kept apart.
  const cold = await download(`${base}/settlements/${statement.id}/statement.pdf`, token);
  for (let i = 0; i < PDF_REQUESTS; i += 1) {
    const reply = await download(`${base}/settlements/${statement.id}/statement.pdf`, token);
    if (reply.status !== 200 || reply.head !== '%PDF-') {
      throw new Error(`statement.pdf answered ${reply.status} (${reply.head})`);
    }
    pdfs.push(reply.ms);
    pdfBytes = reply.bytes;
  }
  const pdf = summarise(pdfs);
  return {
    invoices: {
      lots: LOTS,
      buyers: BUYERS,
      created: made.created,
      seconds: round(invoiceSeconds, 2),
      lotsPerSecond: round(LOTS / invoiceSeconds, 0),
    },
    settlements: {
      consignors: CONSIGNORS,
      lotsPerConsignor: LOTS / CONSIGNORS,
      statementsCreated: built.created,
      buildSeconds: round(buildSeconds, 2),
      rebuild: {
        seconds: round(rebuildSeconds, 2),
        created: again.created,
        unchanged: again.unchanged,
      },
    },
    statementPdf: {
      lots: LOTS / CONSIGNORS,
      bytes: pdfBytes,
      requests: PDF_REQUESTS,
      firstMs: round(cold.ms),
      ms: { p50: round(pdf.p50), p95: round(pdf.p95) },
    },
  };
}

/** 50,000 transactions as the payments service stores them, over a year, four currencies. */
function transactions(accountId: string): TransactionRecord[] {
  const methods = ['Credit Card', 'Bank Transfer', 'PayPal', 'Cash', 'Check'] as const;
  const statuses = [
    'Completed',
    'Completed',
    'Completed',
    'Pending',
    'Failed',
    'Refunded',
  ] as const;
  const currencies = ['USD', 'USD', 'EUR', 'GBP', 'JPY'];
  const start = Date.parse('2030-01-01T00:00:00Z');
  return Array.from({ length: TRANSACTIONS }, (_, i) => {
    const at = new Date(start + i * 600_000).toISOString();
    const amount = 5_000 + ((i * 7919) % 2_000_000);
    const number = `TXN-2030-${String(i + 1).padStart(5, '0')}`;
    return {
      id: `txn-${randomUUID()}`,
      accountId,
      kind: 'transaction',
      transactionId: number,
      invoiceId: `inv-bench-${i % 5000}`,
      invoiceNumber: `INV-2030-${String((i % 5000) + 1).padStart(5, '0')}`,
      bidderId: `bidder-${i % 3000}`,
      bidderName: `Buyer ${i % 3000}`,
      bidderEmail: `buyer-${i % 3000}@example.com`,
      auctionId: `auction-${i % 100}`,
      auctionTitle: `Bench Sale ${i % 100}`,
      lotNumbers: [String((i % 400) + 1)],
      totalAmount: amount,
      buyersPremium: Math.round(amount / 4),
      taxes: 0,
      shippingFees: 0,
      grandTotal: amount + Math.round(amount / 4),
      amount,
      currency: currencies[i % currencies.length] as string,
      paymentMethod: methods[i % methods.length] as (typeof methods)[number],
      paymentStatus: statuses[i % statuses.length] as (typeof statuses)[number],
      dueDate: at.slice(0, 10),
      paymentDate: at,
      reference: `REF-${i}`,
      failureMessage: null,
      refunds: [],
      refundedAmount: 0,
      dispute: null,
      stripePaymentIntentId: null,
      attempt: 1,
      itemsShipped: false,
      shippingTrackingNumber: '',
      notes: '',
      searchText: `${number} buyer ${i % 3000}`.toLowerCase(),
      history: [],
      revision: 1,
      createdAt: at,
      updatedAt: at,
    };
  });
}

/** (b): GET /exports/transactions?format=xlsx over 50,000 transactions. */
async function exportFigures(testStack: TestStack, modules: Services) {
  const owner = await newOwner(testStack, 'exports');
  await addOns(modules, owner.accountId);
  const token = await owner.token();
  const { client } = cosmosFor(testStack);
  const { paymentsContainer } = await import('../../functions/src/payments/payments.repo.js');
  const payments = client
    .database(testStack.settings.COSMOS_DATABASE as string)
    .container(paymentsContainer.id);
  progress(`seeding ${TRANSACTIONS} transactions`);
  const seeding = performance.now();
  await writeAll(payments, owner.accountId, transactions(owner.accountId));
  const seededSeconds = (performance.now() - seeding) / 1000;
  client.dispose();

  const pid = testStack.stack.processes.host?.child.pid;
  if (!pid) throw new Error('no dev host process');
  const before = rssOf(pid);
  // Resets the kernel's high-water mark (VmHWM) so it covers only the export.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let sampledPeak = before.rssMb;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, rssOf(pid).rssMb);
  }, 50);
  progress('exporting them as .xlsx');
  const reply = await download(
    `${testStack.stack.domainUrl}/exports/transactions?format=xlsx`,
    token,
  );
  clearInterval(sampler);
  const after = rssOf(pid);
  if (reply.status !== 200 || !reply.head.startsWith('PK')) {
    throw new Error(`the export answered ${reply.status} (${reply.head})`);
  }
  return {
    transactions: TRANSACTIONS,
    seededSeconds: round(seededSeconds, 1),
    seconds: round(reply.ms / 1000, 2),
    rowsPerSecond: round(TRANSACTIONS / (reply.ms / 1000), 0),
    fileMb: round(reply.bytes / 1048576, 2),
    contentType: reply.type,
    hostRssMb: {
      before: round(before.rssMb, 0),
      peakSampled: round(sampledPeak, 0),
      peakKernel: round(after.peakMb, 0),
      after: round(after.rssMb, 0),
    },
    rssMethod:
      'the dev host process (both apps) is the test stack’s host child; /proc/<pid>/status VmRSS sampled every 50 ms, and VmHWM after writing 5 to /proc/<pid>/clear_refs just before the request. The dev host buffers a reply before sending it (Azure Functions with enableHttpStream streams it), so the peak includes the whole file once.',
  };
}

export async function paymentFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const modules = await services(testStack);
    const sale = await saleFigures(testStack, modules);
    const exported = await exportFigures(testStack, modules);
    return { ...sale, xlsxExport: exported };
  } finally {
    await testStack.stop();
  }
}

export type PaymentFigures = Awaited<ReturnType<typeof paymentFigures>>;

export function paymentsSummary(figures: PaymentFigures) {
  const { invoices, settlements, statementPdf, xlsxExport } = figures;
  return `Payments
  invoices            ${invoices.lots} lots, ${invoices.buyers} buyers: ${invoices.created} invoices in ${invoices.seconds} s (${invoices.lotsPerSecond} lots/s)
  settlements         ${settlements.consignors} consignors × ${settlements.lotsPerConsignor} paid lots: ${settlements.statementsCreated} statements in ${settlements.buildSeconds} s; built again in ${settlements.rebuild.seconds} s (${settlements.rebuild.unchanged} unchanged, ${settlements.rebuild.created} new)
  statement PDF       ${statementPdf.lots} lots, ${Math.round(statementPdf.bytes / 1024)} KB: p50 ${statementPdf.ms.p50} ms  p95 ${statementPdf.ms.p95} ms (${statementPdf.requests} requests after a first of ${statementPdf.firstMs} ms)
  .xlsx export        ${xlsxExport.transactions} transactions: ${xlsxExport.seconds} s (${xlsxExport.rowsPerSecond} rows/s), ${xlsxExport.fileMb} MB; dev host RSS ${xlsxExport.hostRssMb.before} MB before, peak ${xlsxExport.hostRssMb.peakSampled} MB sampled / ${xlsxExport.hostRssMb.peakKernel} MB kernel, ${xlsxExport.hostRssMb.after} MB after
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await paymentFigures();
  process.stdout.write(`${JSON.stringify(figures)}\n\n${paymentsSummary(figures)}`);
  agent.destroy();
}
