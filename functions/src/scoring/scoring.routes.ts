import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import {
  LOTWISE_TIERS,
  LOTWISE_WEIGHTS,
  lotwiseModelSchema,
  scoringSettingsUpdateSchema,
  scoringSettingsViewSchema,
  type LotwiseModel,
} from './scoring.schema.js';
import { saveScoringSettings, scoringSettingsView } from './scoring.service.js';

export const scoringFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'scoring-lotwise-model',
      route: 'scoring/lotwise',
      methods: ['GET'],
      permission: 'authenticated',
      response: lotwiseModelSchema,
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
      response: scoringSettingsViewSchema,
      handler: async ({ ctx }) => {
        const settings = await scoringSettingsView(ctx);
        return { json: settings, etag: settings.etag };
      },
    }),
    httpRoute({
      name: 'scoring-settings-update',
      route: 'scoring/settings',
      methods: ['PUT'],
      permission: 'bidders:scoring',
      body: scoringSettingsUpdateSchema,
      response: scoringSettingsViewSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, body, ifMatch }) => {
        const saved = await saveScoringSettings(ctx, ifMatch, body);
        return { json: saved, etag: saved.etag };
      },
    }),
  ],
};
