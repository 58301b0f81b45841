import { z } from 'zod';

export const dependencyHealthSchema = z.object({
  /** A platform dependency, or a service's own store ("auctions-store"). */
  name: z.enum(['cosmos', 'storage', 'auctions-store']),
  status: z.enum(['up', 'down']),
  latencyMs: z.number().int().nonnegative(),
  error: z.string().optional(),
});
export type DependencyHealth = z.infer<typeof dependencyHealthSchema>;

export const healthReportSchema = z.object({
  service: z.string(),
  app: z.enum(['auth', 'domain', 'all']),
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  checkedAt: z.iso.datetime(),
  dependencies: z.array(dependencyHealthSchema),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

/** Where each logical service answers its health check, relative to its app's origin. */
export const healthPaths = {
  auth: '/health',
  bidders: '/bidders/health',
  auctions: '/auctions/health',
  legal: '/legal/health',
  uploads: '/data-upload/health',
  scoring: '/scoring/health',
} as const;
