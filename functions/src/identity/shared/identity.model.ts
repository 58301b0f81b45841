import type { AccountType, SubscriptionTier } from '../accounts/accounts.schema.js';
import type { MfaPolicy, SecuritySettings } from '../mfa/mfa.schema.js';
import type { Permission, RoleName } from '../permissions.js';

/** What the identity feature keeps in Cosmos. None of this leaves the service as is. */

export interface MfaMethodRecord {
  id: string;
  type: 'authenticator' | 'sms' | 'email';
  name: string;
  enabled: boolean;
  primary: boolean;
  /** False until a code from it has been verified once. */
  verified: boolean;
  phoneNumber?: string;
  email?: string;
  /** The TOTP secret, sealed with a key derived from the signing key. */
  sealedSecret?: string;
  /** The last TOTP time step accepted, so a code is accepted once. */
  lastTimeStep?: number;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface UserRecord {
  id: string;
  type: 'user';
  email: string;
  emailVerified: boolean;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  timezone: string;
  language: string;
  marketingOptIn: boolean;
  termsAcceptedAt: string | null;
  privacyAcceptedAt: string | null;
  status: 'active' | 'disabled';
  defaultAccountId: string | null;
  externalLogins: { provider: 'microsoft'; tenantId: string; subject: string }[];
  mfa: {
    methods: MfaMethodRecord[];
    backupCodes: { hashes: string[]; total: number; generatedAt: string } | null;
  };
  passwordChangedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
}

/** Reserves an email (or an external identity) for one user; its id is the key. */
export interface UserIndexRecord {
  id: string;
  type: 'emailIndex' | 'externalIndex';
  userId: string;
}

export interface AccountRecord {
  id: string;
  accountId: string;
  type: 'account';
  name: string;
  accountType: AccountType;
  ownerUserId: string;
  status: 'active' | 'deleted';
  subscription: {
    tier: SubscriptionTier;
    addOns: { inventory: boolean; payments: boolean };
    /** Rises with every change billing makes, so tokens issued before it are known stale. */
    revision?: number;
  };
  mfaPolicy: MfaPolicy & { enabledAt: string | null };
  securitySettings: SecuritySettings;
  /** Set on a demo sandbox: when it is removed, with everything in it. */
  demoExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface HouseRecord {
  id: string;
  accountId: string;
  type: 'house';
  name: string;
  businessName: string;
  status: 'active' | 'inactive';
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
  email: string;
  website: string | null;
  timezone: string;
  /** Absent on houses made before houses had a currency: those trade in US dollars. */
  currency?: string;
  createdAt: string;
  updatedAt: string;
}

export interface GroupRecord {
  id: string;
  accountId: string;
  type: 'group';
  name: string;
  description: string;
  houseIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface HouseGrant {
  houseId: string;
  role: RoleName;
  permissions: Permission[];
}

/** One user has one membership per account: its id is made from theirs. */
export const membershipId = (userId: string) => `member:${userId}`;

export interface MembershipRecord {
  /** `member:{userId}`, so one user has one membership per account. */
  id: string;
  accountId: string;
  type: 'membership';
  userId: string;
  email: string;
  name: string;
  role: RoleName;
  /** What the member holds account-wide; used when the account has no houses yet. */
  permissions: Permission[];
  houses: HouseGrant[];
  status: 'active' | 'suspended';
  joinedAt: string;
  invitedBy: string | null;
  updatedAt: string;
}

export interface InvitationRecord {
  id: string;
  accountId: string;
  type: 'invitation';
  email: string;
  role: Exclude<RoleName, 'owner'>;
  permissions: Permission[];
  houseIds: string[];
  personalMessage: string | null;
  invitedBy: string;
  invitedByName: string;
  createdAt: string;
  expiresAt: string;
  status: 'pending' | 'accepted' | 'revoked';
  acceptedAt: string | null;
  acceptedBy: string | null;
}

export interface SessionRecord {
  id: string;
  userId: string;
  type: 'session';
  /** Hash of the session token's secret part. */
  secretHash: string;
  accountId: string | null;
  createdAt: string;
  lastSeenAt: string;
  idleExpiresAt: string;
  absoluteExpiresAt: string;
  revokedAt: string | null;
  revokedReason: string | null;
  userAgent: string;
  ipAddress: string;
}

export interface RefreshTokenRecord {
  id: string;
  userId: string;
  type: 'refresh';
  sessionId: string;
  secretHash: string;
  createdAt: string;
  usedAt: string | null;
  /**
   * The token issued when this one was spent: the one live successor a lost answer may be
   * exchanged for within the grace (absent on tokens spent before it was kept).
   */
  replacedBy?: string | null;
}

/** What a link token is for: its record is stored under the hash of the token. */
export type LinkPurpose = 'invitation' | 'password-reset' | 'email-verify' | 'oauth-state';
/** What a short code is for: one live code per person, method and purpose. */
export type CodePurpose = 'mfa-login' | 'mfa-setup';

/** A single-use token: a link's secret, or a short code sent by text or email. */
export interface OneTimeTokenRecord {
  /** The hash of a link token; `{purpose}:{userId}:{methodId}` for a code. */
  id: string;
  purpose: LinkPurpose | CodePurpose;
  userId: string | null;
  accountId: string | null;
  invitationId: string | null;
  email: string | null;
  /** For OAuth: the PKCE verifier and the invitation to apply after sign-in. */
  data: Record<string, string>;
  /** For a code: its keyed hash, and the wrong guesses so far. */
  codeHash?: string;
  attempts?: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** Failed sign-ins of one email, device or client address; a lock runs from the last one. */
export interface ThrottleRecord {
  id: string;
  failures: number;
  firstFailureAt: string;
  lastFailureAt: string;
}
