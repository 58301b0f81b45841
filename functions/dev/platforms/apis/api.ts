import type { z } from 'zod';
import type { Platform } from '../../../src/auctions/auctions.schema.js';
import { SandboxInvalid, type Route, type SandboxReply, type SandboxRequest } from '../http.js';
import type { SandboxAccount } from '../model.js';

/** What one platform's API is to the sandbox server: how it authenticates, errs and routes. */

export interface ApiContext {
  account: SandboxAccount;
  request: SandboxRequest;
  /** This platform's root as the client reached it, for links in replies. */
  base: string;
}

export interface PlatformApi {
  platform: Platform;
  /** The key the request presents, however this platform carries it; null without one. */
  credential(request: SandboxRequest): string | null;
  /** The platform's own answers for each failure, in its own words and shapes. */
  answers: {
    expired(): SandboxReply;
    invalid(): SandboxReply;
    notFound(what: string): SandboxReply;
    invalidRequest(message: string): SandboxReply;
    serverError(): SandboxReply;
    unavailable(): SandboxReply;
    rateLimited(): SandboxReply;
  };
  routes: Route<ApiContext>[];
}

/** A request body checked against the platform's push schema; the first problem is refused. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') || 'body';
  throw new SandboxInvalid(`${path}: ${issue?.message ?? 'is not valid'}`);
}

/** The 503 a load balancer in front of a platform sends: HTML, not the API's JSON. */
export const gatewayUnavailable = (): SandboxReply => ({
  status: 503,
  body: '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center></body></html>',
  contentType: 'text/html',
  headers: { 'retry-after': '30' },
});
