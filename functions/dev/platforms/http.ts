import type { IncomingHttpHeaders } from 'node:http';

/** The little HTTP the sandbox needs: a request read whole, a reply, and path templates. */

export interface SandboxRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; undefined when there was none. */
  body: unknown;
  /** The sandbox's own root as the client reached it, for links in replies. */
  origin: string;
}

export interface SandboxReply {
  status: number;
  /** JSON unless `contentType` says otherwise (then a string or bytes, sent as they are). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export const json = (
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): SandboxReply => (headers ? { status, body, headers } : { status, body });

export const text = (status: number, body: string, contentType = 'text/plain'): SandboxReply => ({
  status,
  body,
  contentType,
});

/** What a handler throws for a thing the account does not have. */
export class SandboxNotFound extends Error {}

/** What a handler throws for a request the platform refuses (its own 400 or 422). */
export class SandboxInvalid extends Error {}

export interface Route<C> {
  method: string;
  /** `/api/v2/auctions/:id`; a parameter may end in a literal, as in `:id.json`. */
  pattern: string;
  handler: (context: C, params: Record<string, string>) => SandboxReply | Promise<SandboxReply>;
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = decodeURIComponent(have[index] as string);
    if (!segment.startsWith(':')) {
      if (segment !== actual) return null;
      continue;
    }
    const [name = '', ...rest] = segment.slice(1).split('.');
    const suffix = rest.length ? `.${rest.join('.')}` : '';
    if (!actual.endsWith(suffix) || actual.length === suffix.length) return null;
    params[name] = actual.slice(0, actual.length - suffix.length);
  }
  return params;
}

/** The route for a request; `'method'` when the path is known but not the method. */
export function findRoute<C>(
  routes: Route<C>[],
  method: string,
  path: string,
): { route: Route<C>; params: Record<string, string> } | 'method' | null {
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? 'method' : null;
}
