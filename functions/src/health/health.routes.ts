import type { AppName, AppSelection, HttpFunction, ServiceName } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { healthPaths, healthReportSchema } from './health.schema.js';
import { checkHealth } from './health.service.js';

const appOf: Record<ServiceName, AppName> = {
  auth: 'auth',
  bidders: 'domain',
  auctions: 'domain',
  legal: 'domain',
  uploads: 'domain',
  scoring: 'domain',
};

function healthRoute(name: string, route: string, service: string, app: AppSelection) {
  return httpRoute({
    name,
    route,
    methods: ['GET'],
    permission: 'public',
    response: healthReportSchema,
    handler: async () => {
      const report = await checkHealth(service, app);
      return { status: report.status === 'ok' ? 200 : 503, json: report };
    },
  });
}

/**
 * `GET {base}/health` for each logical service the selected apps serve, plus `GET /health` for the
 * app as a whole. The auth service's base is its app's origin, so its check is `/health` itself.
 */
export function healthFunctions(selection: AppSelection): HttpFunction[] {
  const services = (Object.keys(appOf) as ServiceName[]).filter(
    (service) => selection === 'all' || appOf[service] === selection,
  );
  const perService = services
    .filter((service) => healthPaths[service] !== '/health')
    .map((service) =>
      healthRoute(`health-${service}`, healthPaths[service].slice(1), service, selection),
    );
  const appService = selection === 'domain' ? 'domain' : selection === 'auth' ? 'auth' : 'all';
  return [healthRoute('health', 'health', appService, selection), ...perService];
}
