import { apiKeysContainer } from './api-keys/api-keys.repo.js';
import { apiKeyFunctions } from './api-keys/api-keys.routes.js';
import { apiKeyVerifier } from './api-keys/api-keys.service.js';
import { auctionFunctions } from './auctions/auctions.routes.js';
import { auctionsContainer } from './auctions/auctions.repo.js';
import { bidderFunctions } from './bidders/bidders.routes.js';
import { billingFunctions } from './billing/billing.routes.js';
import { billingContainer } from './billing/billing.repo.js';
import { conflictFunctions } from './conflicts/conflicts.routes.js';
import { conflictsContainer } from './conflicts/conflicts.repo.js';
import {
  biddersContainer,
  duplicatesContainer,
  notesContainer,
  scoreChangesContainer,
} from './bidders/bidders.repo.js';
import { healthFunctions } from './health/health.routes.js';
import { identityContainers } from './identity/identity.containers.js';
import { identityFunctions } from './identity/identity.routes.js';
import { integrationFunctions } from './integrations/integrations.routes.js';
import { legalFunctions } from './legal/legal.routes.js';
import { legalContainer } from './legal/legal.repo.js';
import { integrationsContainer } from './integrations/integrations.repo.js';
import { sessionGuard } from './identity/sessions/sessions.service.js';
import { planGuard } from './identity/accounts/accounts.service.js';
import { apiDescriptionFunctions } from './platform/api-docs.js';
import { auditContainer } from './platform/audit.js';
import type { ContainerDefinition } from './platform/cosmos.js';
import type {
  AppSelection,
  FunctionDefinition,
  FunctionTable,
  HttpFunction,
} from './platform/functions.js';
import { outboxContainer } from './platform/mail.js';
import { notFoundFunction } from './platform/not-found.js';
import { notificationFunctions } from './notifications/notifications.routes.js';
import { notificationsContainer } from './notifications/notifications.repo.js';
import { supportFunctions } from './support/support.routes.js';
import { supportContainer } from './support/support.repo.js';
import { addPrincipalGuard, installApiKeyVerifier } from './platform/principal.js';
import { sandboxContainer } from './sandbox/sandbox.repo.js';
import { sandboxFunctions } from './sandbox/sandbox.routes.js';
import { scoringContainer } from './scoring/scoring.repo.js';
import { scoringFunctions } from './scoring/scoring.routes.js';
import { settingsContainer } from './settings/settings.repo.js';
import { paymentsContainer } from './payments/payments.repo.js';
import { paymentsFunctions } from './payments/payments.routes.js';
import { settlementsContainer } from './payments/settlements/settlements.repo.js';
import { settlementFunctions } from './payments/settlements/settlements.routes.js';
import { exportFunctions } from './payments/exports/exports.routes.js';
import { settingsFunctions } from './settings/settings.routes.js';
import { inventoryContainer } from './inventory/inventory.repo.js';
import { inventoryFunctions } from './inventory/inventory.routes.js';
import { telemetryFunctions } from './telemetry/telemetry.routes.js';
import { uploadFunctions } from './uploads/uploads.routes.js';
import { uploadLedgerContainer, uploadsContainer } from './uploads/uploads.repo.js';
import { webhookDeliveriesContainer, webhookEndpointsContainer } from './webhooks/webhooks.repo.js';
import { webhookFunctions } from './webhooks/webhooks.routes.js';

/** Each feature's table of HTTP, timer and queue functions, tagged with the app that serves it. */
const featureTables = (): FunctionTable[] => [
  telemetryFunctions,
  identityFunctions(),
  notificationFunctions,
  supportFunctions,
  bidderFunctions,
  scoringFunctions,
  auctionFunctions,
  integrationFunctions,
  legalFunctions,
  billingFunctions,
  uploadFunctions,
  conflictFunctions,
  apiKeyFunctions,
  webhookFunctions,
  settingsFunctions,
  paymentsFunctions,
  settlementFunctions,
  exportFunctions,
  inventoryFunctions,
  sandboxFunctions(accountPartitioned()),
];

/** Every function the selected app (or both) registers. */
export function functionsFor(selection: AppSelection): FunctionDefinition[] {
  const features = featureTables()
    .filter((table) => selection === 'all' || table.app === selection)
    .flatMap((table) => table.functions);
  const served = [...healthFunctions(selection), ...features];
  const definitions = [...served, ...apiDescriptionFunctions(served, selection)];
  const http = definitions.filter(
    (definition): definition is HttpFunction => definition.kind === 'http',
  );
  return [...definitions, notFoundFunction(http)];
}

/** Every Cosmos container the product uses, for the bootstrap (and infra/containers.json). */
export const containerDefinitions: ContainerDefinition[] = [
  auditContainer,
  outboxContainer,
  ...identityContainers,
  notificationsContainer,
  supportContainer,
  biddersContainer,
  duplicatesContainer,
  notesContainer,
  scoreChangesContainer,
  scoringContainer,
  auctionsContainer,
  legalContainer,
  billingContainer,
  integrationsContainer,
  sandboxContainer,
  apiKeysContainer,
  webhookEndpointsContainer,
  webhookDeliveriesContainer,
  settingsContainer,
  paymentsContainer,
  settlementsContainer,
  inventoryContainer,
  uploadsContainer,
  uploadLedgerContainer,
  conflictsContainer,
];

/** The containers whose documents belong to one account each: removing an account empties them. */
const accountPartitioned = () =>
  containerDefinitions
    .filter((definition) => definition.partitionKey === '/accountId')
    .map((definition) => definition.id);

let guarded = false;

/**
 * Checks every app applies to a verified token (its session must still be live), and how the
 * routes that take them verify the house's API keys.
 */
export function installPrincipalGuards(): void {
  if (guarded) return;
  guarded = true;
  addPrincipalGuard(sessionGuard);
  addPrincipalGuard(planGuard);
  installApiKeyVerifier(apiKeyVerifier);
}
