import type { z } from 'zod';
import type {
  HttpHandler,
  HttpMethod,
  InvocationContext,
  StorageQueueHandler,
  Timer,
} from '@azure/functions';

/** `public` needs no token, `authenticated` any signed-in user, otherwise an `area:action` key. */
export type RoutePermission = 'public' | 'authenticated' | `${string}:${string}`;

/** The logical services of the product; each answers `GET {base}/health`. */
export const serviceNames = ['auth', 'bidders', 'auctions', 'legal', 'uploads', 'scoring'] as const;
export type ServiceName = (typeof serviceNames)[number];

/** The two Function Apps built from this codebase, and `all` for both in one. */
export type AppName = 'auth' | 'domain';
export type AppSelection = AppName | 'all';

/** How a route guards against lost updates (see RouteSpec.concurrency). */
export type Concurrency = 'none' | 'if-match' | 'if-match-optional';

/** The add-ons that unlock whole features (their routes declare `feature`). */
export type PlanFeature = 'inventory' | 'payments';

/** Who may call a route with a catalogue permission: people only, or also the house's API keys. */
export type Callers = 'people' | 'people-and-keys';

/** What a route declares about its input and output: read by the API description and tests. */
export interface RouteContract {
  summary?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  concurrency: Concurrency;
  maxBodyBytes: number;
  allowDuringMfaSetup: boolean;
  /** Whether the house's API keys may call it (see RouteSpec.callers). */
  apiKeys: boolean;
  /** The add-on the account's plan must include (see RouteSpec.feature). */
  feature?: PlanFeature;
}

export interface HttpFunction {
  kind: 'http';
  name: string;
  route: string;
  methods: HttpMethod[];
  permission: RoutePermission;
  handler: HttpHandler;
  /** Absent for functions that are not built with httpRoute (none today but the host's own). */
  contract?: RouteContract;
}

export interface TimerFunction {
  kind: 'timer';
  name: string;
  /** NCRONTAB with seconds: `{second} {minute} {hour} {day} {month} {day-of-week}`. */
  schedule: string;
  handler: (timer: Timer, context: InvocationContext) => Promise<void>;
}

export interface QueueFunction {
  kind: 'queue';
  name: string;
  queueName: string;
  handler: StorageQueueHandler;
}

export type FunctionDefinition = HttpFunction | TimerFunction | QueueFunction;

/** The functions one feature contributes to one app. */
export interface FunctionTable {
  app: AppName;
  functions: FunctionDefinition[];
}
