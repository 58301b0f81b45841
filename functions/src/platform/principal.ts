import { jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';
import { unauthorized } from './errors.js';
import { settings } from './settings.js';

export const roleSchema = z.enum(['owner', 'admin', 'staff', 'viewer']);
export type Role = z.infer<typeof roleSchema>;

/** The claims of a Lotwise access token: who, which account, and what they may do there. */
export const accessClaimsSchema = z.object({
  sub: z.string().min(1),
  acc: z.string().min(1),
  sid: z.string().min(1),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  perms: z.array(z.string()),
  houses: z.array(z.object({ id: z.string(), role: roleSchema, perms: z.array(z.string()) })),
  feat: z.array(z.string()),
  /** The revision of the account's plan the features were read from. */
  plan: z.number().int().optional(),
  /** Set when the account's MFA policy requires the user to enrol and the grace period is over. */
  msr: z.boolean().optional(),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** The verified caller of a request. Tenancy comes from here and nowhere else. */
export interface Principal {
  userId: string;
  accountId: string;
  sessionId: string;
  email: string;
  name: string;
  role: Role;
  permissions: ReadonlySet<string>;
  houses: ReadonlyArray<{ id: string; role: Role; permissions: ReadonlySet<string> }>;
  features: ReadonlySet<string>;
  /** The revision of the account's plan `features` reflects; a newer plan makes the token stale. */
  planRevision: number;
  /** Only routes that let the user enrol in MFA may be used until this clears. */
  mfaSetupRequired: boolean;
}

export const ACCESS_TOKEN_AUDIENCE = 'lotwise-api';

export function signingKey(): Uint8Array {
  return new TextEncoder().encode(settings().AUTH_SIGNING_KEY);
}

export function principalFromClaims(claims: AccessClaims): Principal {
  return {
    userId: claims.sub,
    accountId: claims.acc,
    sessionId: claims.sid,
    email: claims.email,
    name: claims.name,
    role: claims.role,
    permissions: new Set(claims.perms),
    houses: claims.houses.map((house) => ({
      id: house.id,
      role: house.role,
      permissions: new Set(house.perms),
    })),
    features: new Set(claims.feat),
    planRevision: claims.plan ?? 0,
    mfaSetupRequired: claims.msr ?? false,
  };
}

export async function verifyAccessToken(token: string): Promise<Principal> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      issuer: settings().AUTH_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      algorithms: ['HS256'],
    });
    const claims = accessClaimsSchema.safeParse(payload);
    if (!claims.success) throw unauthorized('Access token is malformed');
    return principalFromClaims(claims.data);
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('Access token has expired');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('Access token is not valid');
    throw error;
  }
}

/**
 * Checks beyond the signature (for example that the session is still live), registered by the
 * identity feature at start-up so that revocation takes effect at once.
 */
type PrincipalGuard = (principal: Principal) => Promise<void>;
const guards: PrincipalGuard[] = [];

export function addPrincipalGuard(guard: PrincipalGuard): void {
  guards.push(guard);
}

function bearerToken(authorization: string | null): string {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized('Sign in to continue');
  return match[1];
}

async function verifiedPerson(token: string): Promise<Principal> {
  const principal = await verifyAccessToken(token);
  for (const guard of guards) await guard(principal);
  return principal;
}

export async function authenticate(authorization: string | null): Promise<Principal> {
  const token = bearerToken(authorization);
  if (apiKeyVerifier?.recognises(token)) {
    throw unauthorized('API keys are not accepted here: sign in as a person');
  }
  return verifiedPerson(token);
}

/** One of the house's own systems, verified by its API key. */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: string;
  /** The name its creator gave the key. */
  name: string;
  accountId: string;
  permissions: ReadonlySet<string>;
}

/**
 * Recognises and verifies API keys. The keys are a feature's records, and the platform imports no
 * feature, so the registry installs the verifier at start-up.
 */
export interface ApiKeyVerifier {
  /** Whether a bearer credential has the shape of an API key (its prefix), not a token. */
  recognises(token: string): boolean;
  /** The key's principal; a 401 for an unknown, malformed or revoked key. */
  verify(token: string): Promise<ApiKeyPrincipal>;
}

let apiKeyVerifier: ApiKeyVerifier | undefined;

export function installApiKeyVerifier(verifier: ApiKeyVerifier): void {
  apiKeyVerifier = verifier;
}

/** A person's access token, or (where the route takes them) an API key. */
export async function authenticateCaller(
  authorization: string | null,
): Promise<Principal | ApiKeyPrincipal> {
  const token = bearerToken(authorization);
  if (apiKeyVerifier?.recognises(token)) return apiKeyVerifier.verify(token);
  return verifiedPerson(token);
}

export const isApiKeyPrincipal = (
  principal: Principal | ApiKeyPrincipal,
): principal is ApiKeyPrincipal => 'kind' in principal && principal.kind === 'api_key';

/**
 * Owners hold every permission; others hold their role's set, optionally narrowed to one house.
 * An API key holds exactly the permissions it was given, account-wide.
 */
export function hasPermission(
  principal: Principal | ApiKeyPrincipal,
  permission: string,
  houseId?: string,
): boolean {
  if (isApiKeyPrincipal(principal)) return principal.permissions.has(permission);
  if (principal.role === 'owner') return true;
  if (houseId) {
    const house = principal.houses.find((candidate) => candidate.id === houseId);
    return house ? house.role === 'owner' || house.permissions.has(permission) : false;
  }
  return principal.permissions.has(permission);
}
