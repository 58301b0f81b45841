import { ticketSchema, type TicketRequest } from '@contracts/support/support.schema';
import useSWR from 'swr';
import { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';

const key = domainApi('/support/tickets');

export function useMyTickets() {
  return useSWR(key, (url: string) =>
    apiRequest(url, { schema: z.object({ tickets: z.array(ticketSchema) }) }),
  );
}

export function openTicket(body: TicketRequest) {
  return apiRequest(key, { method: 'POST', body, schema: ticketSchema });
}
