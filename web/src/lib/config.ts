import { z } from 'zod';
import { healthPaths } from '@contracts/health/health.schema';

const environment = z
  .object({
    VITE_AUTH_API_URL: z.url().default('http://localhost:7071'),
    VITE_DOMAIN_API_URL: z.url().default('http://localhost:7072'),
  })
  .parse(import.meta.env);

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Where the services live, fixed at build time by the deployment (see web/.env). */
export const config = {
  authApiUrl: trimSlash(environment.VITE_AUTH_API_URL),
  domainApiUrl: trimSlash(environment.VITE_DOMAIN_API_URL),
};

export type ServiceId = keyof typeof healthPaths;

export interface ServiceDescriptor {
  id: ServiceId;
  label: string;
  baseUrl: string;
  healthUrl: string;
}

const describe = (id: ServiceId, label: string, baseUrl: string): ServiceDescriptor => ({
  id,
  label,
  baseUrl,
  healthUrl: `${baseUrl}${healthPaths[id]}`,
});

/** The six services whose health the Config tab checks, in the spec's order. */
export const services: ServiceDescriptor[] = [
  describe('auth', 'Authentication', config.authApiUrl),
  describe('bidders', 'Bidders', config.domainApiUrl),
  describe('auctions', 'Auctions', config.domainApiUrl),
  describe('legal', 'Legal', config.domainApiUrl),
  describe('uploads', 'Data Upload', config.domainApiUrl),
  describe('scoring', 'Scoring', config.domainApiUrl),
];
