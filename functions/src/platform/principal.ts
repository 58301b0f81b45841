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

export async function authenticate(authorization: string | null): Promise<Principal> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized('Sign in to continue');
  const principal = await verifyAccessToken(match[1]);
  for (const guard of guards) await guard(principal);
  return principal;
}

/** Owners hold every permission; others hold their role's set, optionally narrowed to one house. */
export function hasPermission(principal: Principal, permission: string, houseId?: string): boolean {
  if (principal.role === 'owner') return true;
  if (houseId) {
    const house = principal.houses.find((candidate) => candidate.id === houseId);
    return house ? house.role === 'owner' || house.permissions.has(permission) : false;
  }
  return principal.permissions.has(permission);
}
