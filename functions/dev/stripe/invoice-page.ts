import type { Invoice } from './model.js';
import { money } from './resources/invoices.js';

/** The hosted invoice page (`/i/{id}`): a plain, printable view of one invoice. */

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const day = (unix: number | null) =>
  unix === null
    ? '—'
    : new Date(unix * 1000).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      });

export function invoicePage(invoice: Invoice): string {
  const rows = invoice.lines.data
    .map(
      (
        line,
      ) => `<tr><td>${escape(line.description)}<div class="muted">${day(line.period.start)} – ${day(line.period.end)}</div></td>
<td class="num">${line.quantity}</td><td class="num">${money(line.amount, line.currency)}</td></tr>`,
    )
    .join('\n');
  const status =
    invoice.status === 'paid' ? `Paid ${day(invoice.status_transitions.paid_at)}` : invoice.status;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${escape(invoice.number ?? invoice.id)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 760px; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
  header { display: flex; justify-content: space-between; align-items: baseline; }
  .muted { opacity: .65; font-size: .875rem; }
  .status { text-transform: capitalize; font-weight: 600; }
  table { width: 100%; border-collapse: collapse; margin-top: 1.5rem; }
  th, td { padding: .5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 20%, transparent); text-align: left; vertical-align: top; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: 600; border-bottom: none; }
</style></head>
<body>
<header><h1>Invoice</h1><span class="status">${escape(status)}</span></header>
<p><strong>${escape(invoice.account_name)}</strong> · Invoice number ${escape(invoice.number ?? '(draft)')}<br>
<span class="muted">Issued ${day(invoice.created)} · Billed to ${escape(invoice.customer_name ?? invoice.customer_email ?? invoice.customer)}</span></p>
<table>
<thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Amount</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot>
<tr><td colspan="2">Total</td><td class="num">${money(invoice.total, invoice.currency)}</td></tr>
<tr><td colspan="2">Amount paid</td><td class="num">${money(invoice.amount_paid, invoice.currency)}</td></tr>
<tr><td colspan="2">Amount due</td><td class="num">${money(invoice.amount_remaining, invoice.currency)}</td></tr>
</tfoot></table>
<p class="muted">Served by the local Stripe stand-in; no real payment was taken.</p>
</body></html>`;
}
