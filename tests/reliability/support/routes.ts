import { inject } from 'vitest';
import type {
  AppName,
  HttpFunction,
  RouteContract,
  RoutePermission,
} from '../../../functions/src/platform/functions.js';

/** One method of one route, as its table declares it: what every reliability case is made from. */
export interface Operation {
  app: AppName;
  /** Origin of the app that serves it. */
  base: string;
  method: string;
  /** The template, e.g. `bidders/{id}`. */
  route: string;
  name: string;
  permission: RoutePermission;
  contract: RouteContract;
  /** Names of the path parameters, in order. */
  params: string[];
  /** `PUT /bidders/{id}`: how reports name it. */
  key: string;
}

const paramPattern = /\{\*?(\w+)(?::\w+)?\??\}/g;

export const paramsOf = (route: string) => [...route.matchAll(paramPattern)].map((m) => m[1]!);

/** The path of a route with its parameters filled in (each encoded as one path segment). */
export function pathOf(route: string, values: Record<string, string>): string {
  return `/${route.replace(paramPattern, (_whole, name: string) =>
    // A lone surrogate cannot be sent in a URL at all; it becomes U+FFFD as a browser would.
    encodeURIComponent((values[name] ?? '').replace(/\p{Cs}/gu, '\uFFFD')),
  )}`;
}

let loaded: Promise<Operation[]> | undefined;

/**
 * Every HTTP route of both apps and each of its methods, read from the same route tables the
 * apps serve (registry.functionsFor), but the `{*path}` fallback. The process gets the stack's
 * settings first, so the tables hold exactly what the running apps registered.
 */
export function operations(): Promise<Operation[]> {
  loaded ??= (async () => {
    Object.assign(process.env, inject('settings'));
    const { functionsFor } = await import('../../../functions/src/registry.js');
    const bases: Record<AppName, string> = { auth: inject('authUrl'), domain: inject('domainUrl') };
    return (['auth', 'domain'] as const).flatMap((app) =>
      functionsFor(app)
        .filter((fn): fn is HttpFunction => fn.kind === 'http' && !fn.route.includes('{*'))
        .flatMap((fn) => {
          if (!fn.contract) throw new Error(`${fn.name} has no contract: it cannot be covered`);
          const contract = fn.contract;
          return fn.methods.map((method) => ({
            app,
            base: bases[app],
            method,
            route: fn.route,
            name: fn.name,
            permission: fn.permission,
            contract,
            params: paramsOf(fn.route),
            key: `${method} /${fn.route}`,
          }));
        }),
    );
  })();
  return loaded;
}
