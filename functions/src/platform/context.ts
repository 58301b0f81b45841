import { randomUUID } from 'node:crypto';
import { hasPermission, type ApiKeyPrincipal, type Principal, type Role } from './principal.js';

/** The account a repository call is bound to: all a repository needs of the tenant. */
export interface AccountScope {
  readonly accountId: string;
}

/**
 * The tenant a call works in: the verified account and the houses the caller may act in. Built by
 * the HTTP wrapper from the verified token (or, for background work, from a message the platform
 * itself queued), never from a request body or query.
 */
export interface TenantScope extends AccountScope {
  readonly houses: ReadonlyArray<{ readonly id: string; readonly role: Role }>;
}

/** A signed-in person, as notes and audit entries record them. */
export interface UserActor {
  readonly kind: 'user';
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  /** Their role in the account. */
  readonly role: Role;
  /** The sign-in the request came with. */
  readonly sessionId: string;
}

/** Lotwise itself, for work nobody asked for at that moment (queued jobs, automatic merges). */
export interface SystemActor {
  readonly kind: 'system';
  readonly userId: 'system';
  readonly name: string;
  readonly email: '';
  readonly role: null;
  readonly sessionId: null;
}

/**
 * One of the house's own systems, calling with an API key the owner created. It acts account-wide
 * with the key's permissions; `name` is how notes and audit entries name it.
 */
export interface ApiKeyActor {
  readonly kind: 'api_key';
  /** Not a person: `api-key:{keyId}`, what records that keep an author's id keep for a key. */
  readonly userId: `api-key:${string}`;
  readonly keyId: string;
  /** The key's name as its creator gave it, e.g. "ERP sync". */
  readonly keyName: string;
  /** "ERP sync (API key)": what "by …" lines show. */
  readonly name: string;
  readonly email: '';
  readonly role: null;
  readonly sessionId: null;
}

/** Who is acting. */
export type Actor = UserActor | SystemActor | ApiKeyActor;

/**
 * Everything a handler and a service need to know about the request they serve, handed over once
 * by the wrapper: services take it first and never see a raw token or principal.
 */
export interface RequestContext {
  readonly scope: TenantScope;
  readonly actor: Actor;
  readonly correlationId: string;
  /** The account's features in the token (`inventory`, `payments`, ...). */
  readonly features: ReadonlySet<string>;
  /** Whether the caller holds a permission, in the account or in one house. */
  can(permission: string, houseId?: string): boolean;
}

/** The context of a signed-in person's request: what every non-public route gets. */
export interface UserContext extends RequestContext {
  readonly actor: UserActor;
}

/** The context of a request made with an API key. */
export interface ApiKeyContext extends RequestContext {
  readonly actor: ApiKeyActor;
}

/** Who may call a route that takes API keys: a signed-in person or one of the house's systems. */
export type CallerContext = UserContext | ApiKeyContext;

/** A request on a public route: who is calling, when a valid token came with it. */
export interface PublicContext {
  readonly correlationId: string;
  readonly caller: UserContext | undefined;
}

export function contextOf(principal: Principal, correlationId: string): UserContext {
  return {
    scope: {
      accountId: principal.accountId,
      houses: principal.houses.map((house) => ({ id: house.id, role: house.role })),
    },
    actor: {
      kind: 'user',
      userId: principal.userId,
      name: principal.name,
      email: principal.email,
      role: principal.role,
      sessionId: principal.sessionId,
    },
    correlationId,
    features: principal.features,
    can: (permission, houseId) => hasPermission(principal, permission, houseId),
  };
}

export function apiKeyContextOf(principal: ApiKeyPrincipal, correlationId: string): ApiKeyContext {
  return {
    // A key acts for the whole account; it names no house.
    scope: { accountId: principal.accountId, houses: [] },
    actor: {
      kind: 'api_key',
      userId: `api-key:${principal.keyId}`,
      keyId: principal.keyId,
      keyName: principal.name,
      name: `${principal.name} (API key)`,
      email: '',
      role: null,
      sessionId: null,
    },
    correlationId,
    features: new Set<string>(),
    // Exactly the key's permissions, in the account and in any one house.
    can: (permission) => principal.permissions.has(permission),
  };
}

const systemActor: SystemActor = {
  kind: 'system',
  userId: 'system',
  name: 'Lotwise',
  email: '',
  role: null,
  sessionId: null,
};

/**
 * The context of work the platform does on its own (queued jobs, timers, seeding) in one account.
 * It holds every permission of the account: what it does was decided by whoever queued it.
 */
export function systemContext(accountId: string, correlationId: string = randomUUID()) {
  return {
    scope: { accountId, houses: [] },
    actor: systemActor,
    correlationId,
    features: new Set<string>(),
    can: () => true,
  } satisfies RequestContext;
}

/** What the platform decides on its own while serving a request (an automatic merge, say). */
export function asSystem(ctx: RequestContext): RequestContext {
  return { ...ctx, actor: systemActor };
}
