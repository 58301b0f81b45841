import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import {
  supportContactsSchema,
  ticketListSchema,
  ticketRequestSchema,
  ticketSchema,
} from './support.schema.js';
import { myTickets, openTicket, supportContacts } from './support.service.js';

export const supportFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'support-contact',
      route: 'support/contact',
      methods: ['GET'],
      // The support page is shown to people who cannot sign in.
      permission: 'public',
      summary: 'How to reach the support team',
      response: supportContactsSchema,
      handler: async () => ({ json: supportContacts() }),
    }),
    httpRoute({
      name: 'support-ticket-create',
      route: 'support/tickets',
      methods: ['POST'],
      // Anyone signed in can ask for help, viewers included.
      permission: 'authenticated',
      body: ticketRequestSchema,
      response: ticketSchema,
      handler: async ({ ctx, body }) => ({ status: 201, json: await openTicket(ctx, body) }),
    }),
    httpRoute({
      name: 'support-ticket-list',
      route: 'support/tickets',
      methods: ['GET'],
      permission: 'authenticated',
      response: ticketListSchema,
      handler: async ({ ctx }) => ({ json: { tickets: await myTickets(ctx) } }),
    }),
  ],
};
