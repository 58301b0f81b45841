import { healthFunctions } from './health/health.routes.js';
import { auditContainer } from './platform/audit.js';
import type { ContainerDefinition } from './platform/cosmos.js';
import type {
  AppSelection,
  FunctionDefinition,
  FunctionTable,
  HttpFunction,
} from './platform/functions.js';
import { notFoundFunction } from './platform/not-found.js';
import { telemetryFunctions } from './telemetry/telemetry.routes.js';

/** Each feature's table of HTTP, timer and queue functions, tagged with the app that serves it. */
const featureTables: FunctionTable[] = [telemetryFunctions];

/** Every function the selected app (or both) registers. */
export function functionsFor(selection: AppSelection): FunctionDefinition[] {
  const features = featureTables
    .filter((table) => selection === 'all' || table.app === selection)
    .flatMap((table) => table.functions);
  const definitions = [...healthFunctions(selection), ...features];
  const http = definitions.filter(
    (definition): definition is HttpFunction => definition.kind === 'http',
  );
  return [...definitions, notFoundFunction(http)];
}

/** Every Cosmos container the product uses, for the bootstrap. */
export const containerDefinitions: ContainerDefinition[] = [auditContainer];
