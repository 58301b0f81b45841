import type { AccountView } from '@contracts/identity/accounts/accounts.schema';
import { ticketSchema, type TicketRequest } from '@contracts/support/support.schema';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';

/** Asks for an add-on; the request reaches the team as a support ticket. */
export function requestUpgrade(
  addOn: { title: string; price: number },
  account: Pick<AccountView, 'name' | 'houses'>,
) {
  const houses = account.houses.length;
  const body: TicketRequest = {
    subject: `Add the ${addOn.title} add-on`,
    category: 'Account & Billing',
    description: `Please add the ${addOn.title} add-on ($${addOn.price} per auction house per month) to ${account.name}, which has ${countOf(houses, 'auction house')}.`,
  };
  return apiRequest(domainApi('/support/tickets'), { method: 'POST', body, schema: ticketSchema });
}
