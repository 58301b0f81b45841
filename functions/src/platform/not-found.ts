import type { HttpMethod } from '@azure/functions';
import { AppError, notFound } from './errors.js';
import type { HttpFunction } from './functions.js';
import { httpRoute } from './http.js';
import { RouteTable } from './route-template.js';

const everyMethod: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/**
 * The lowest-precedence route of an app: answers paths no other function serves with a JSON 404,
 * or a 405 naming the allowed methods when the path exists for other methods.
 */
export function notFoundFunction(functions: HttpFunction[]): HttpFunction {
  const table = new RouteTable(functions);
  return httpRoute({
    name: 'not-found',
    route: '{*path}',
    methods: everyMethod,
    permission: 'public',
    handler: async ({ request }) => {
      const path = new URL(request.url).pathname;
      const allowed = [
        ...new Set(table.matchAll(path).flatMap((match) => match.entry.methods)),
      ].sort();
      if (allowed.length) {
        throw new AppError(
          'method_not_allowed',
          `${request.method} is not supported on ${path}`,
          { allowed },
          { allow: allowed.join(', ') },
        );
      }
      throw notFound(`No route matches ${request.method} ${path}`);
    },
  });
}
