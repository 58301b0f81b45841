import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { scopeOf } from '../platform/repo.js';
import {
  LOTWISE_TIERS,
  LOTWISE_WEIGHTS,
  scoringSettingsUpdateSchema,
  type LotwiseModel,
} from './scoring.schema.js';
import { saveScoringSettings, scoringSettings } from './scoring.service.js';

export const scoringFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'scoring-lotwise-model',
      route: 'scoring/lotwise',
      methods: ['GET'],
      permission: 'authenticated',
      handler: async () => ({
        json: {
          weights: LOTWISE_WEIGHTS,
          tiers: LOTWISE_TIERS,
          description:
            'The Lotwise Score is computed the same way for every auction house, from each bidder’s own record. It is managed by Lotwise and cannot be changed.',
        } satisfies LotwiseModel,
      }),
    }),
    httpRoute({
      name: 'scoring-settings',
      route: 'scoring/settings',
      methods: ['GET'],
      permission: 'bidders:view',
      handler: async ({ principal }) => ({ json: await scoringSettings(scopeOf(principal)) }),
    }),
    httpRoute({
      name: 'scoring-settings-update',
      route: 'scoring/settings',
      methods: ['PUT'],
      permission: 'bidders:scoring',
      body: scoringSettingsUpdateSchema,
      handler: async ({ principal, body, correlationId }) => ({
        json: await saveScoringSettings(scopeOf(principal), body, correlationId),
      }),
    }),
  ],
};
