import type { Stored } from '../../platform/repo.js';
import {
  allPermissions,
  currentPermissions,
  type Permission,
  type RoleName,
} from '../permissions.js';
import type { AccountRecord, HouseRecord, MembershipRecord } from '../shared/identity.model.js';
import { DEFAULT_HOUSE_CURRENCY, type AccountView, type House } from './accounts.schema.js';

export interface HouseAccess {
  houseId: string;
  houseName: string;
  role: RoleName;
  permissions: Permission[];
}

export interface EffectiveAccess {
  role: RoleName;
  /** Held in at least one house (or account-wide when the account has no houses). */
  permissions: Permission[];
  houses: HouseAccess[];
}

/**
 * What a member may do, as the spec defines it: the owner holds everything everywhere; anyone else
 * holds what their entry for a house lists, and "any house" when no house is named.
 */
export function effectiveAccess(
  membership: MembershipRecord,
  houses: HouseRecord[],
): EffectiveAccess {
  if (membership.role === 'owner') {
    return {
      role: 'owner',
      permissions: [...allPermissions],
      houses: houses.map((house) => ({
        houseId: house.id,
        houseName: house.name,
        role: 'owner',
        permissions: [...allPermissions],
      })),
    };
  }
  const byId = new Map(houses.map((house) => [house.id, house]));
  const granted = membership.houses.flatMap((grant) => {
    const house = byId.get(grant.houseId);
    return house
      ? [
          {
            houseId: house.id,
            houseName: house.name,
            role: grant.role,
            permissions: currentPermissions(grant.permissions),
          },
        ]
      : [];
  });
  const permissions = granted.length
    ? [...new Set(granted.flatMap((grant) => grant.permissions))]
    : houses.length
      ? []
      : currentPermissions(membership.permissions);
  return { role: membership.role, permissions, houses: granted };
}

export interface FeatureAvailability {
  inventory: boolean;
  payments: boolean;
}

/** A house as members see it: how many active members can work in it. */
export function toHouse(house: Stored<HouseRecord>, memberships: MembershipRecord[]): House {
  return {
    id: house.id,
    name: house.name,
    businessName: house.businessName,
    status: house.status,
    address: house.address,
    city: house.city,
    state: house.state,
    zip: house.zip,
    country: house.country,
    phone: house.phone,
    email: house.email,
    website: house.website,
    timezone: house.timezone,
    currency: house.currency ?? DEFAULT_HOUSE_CURRENCY,
    staffCount: memberships.filter(
      (member) =>
        member.status === 'active' &&
        (member.role === 'owner' || member.houses.some((grant) => grant.houseId === house.id)),
    ).length,
    createdAt: house.createdAt,
    etag: house._etag,
  };
}

export function toAccountView(
  account: Stored<AccountRecord>,
  houses: Stored<HouseRecord>[],
  memberships: MembershipRecord[],
  access: EffectiveAccess,
  features: FeatureAvailability,
): AccountView {
  const visible =
    access.role === 'owner'
      ? houses
      : houses.filter((house) => access.houses.some((grant) => grant.houseId === house.id));
  return {
    id: account.id,
    name: account.name,
    type: account.accountType,
    ownerUserId: account.ownerUserId,
    subscription: account.subscription,
    houses: visible.map((house) => toHouse(house, memberships)),
    role: access.role,
    permissions: access.permissions,
    houseAccess: access.houses,
    features: (Object.keys(features) as (keyof FeatureAvailability)[]).filter(
      (key) => features[key],
    ),
    ...(account.demoExpiresAt ? { demoExpiresAt: account.demoExpiresAt } : {}),
    createdAt: account.createdAt,
    etag: account._etag,
  };
}

/** When the account's MFA policy makes this member enrol, if it does. */
export function mfaDeadline(account: AccountRecord, membership: MembershipRecord): Date | null {
  const policy = account.mfaPolicy;
  if (!policy.required || !policy.requiredForRoles.includes(membership.role)) return null;
  const since = Math.max(
    Date.parse(policy.enabledAt ?? account.createdAt),
    Date.parse(membership.joinedAt),
  );
  return new Date(since + policy.gracePeriodDays * 86_400_000);
}
