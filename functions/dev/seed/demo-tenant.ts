import { randomUUID } from 'node:crypto';
import { accountsRepo } from '../../src/identity/accounts/accounts.repo.js';
import {
  createOwnedAccount,
  furnishAccount,
} from '../../src/identity/accounts/accounts.service.js';
import { hashPassword } from '../../src/identity/auth/passwords.js';
import {
  membershipId,
  type HouseRecord,
  type MembershipRecord,
  type UserRecord,
} from '../../src/identity/shared/identity.model.js';
import {
  defaultPermissions,
  roleLabels,
  type AssignableRole,
} from '../../src/identity/permissions.js';
import { notify } from '../../src/notifications/notifications.service.js';
import { createUser, newUserRecord, userByEmail } from '../../src/identity/shared/users.service.js';
import { systemContext } from '../../src/platform/context.js';
import { settings } from '../../src/platform/settings.js';
import { seedSubscription } from '../../src/billing/billing.service.js';
import type { Logger } from '../../src/platform/logging.js';
import { seedDemoAuctions } from '../../src/sandbox/demo-auctions.js';
import { seedDemoCases } from '../../src/sandbox/demo-cases.js';
import { seedDemoInventory } from '../../src/sandbox/demo-inventory.js';
import { seedDemoPayments } from '../../src/sandbox/demo-payments.js';
import { seedDemoPlatforms } from './demo-platforms.js';
import { seedDemoBidders } from '../../src/sandbox/demo-bidders.js';
import { DEMO_ACCOUNT_NAME, demoAccountPlan } from '../../src/sandbox/demo-tenant.js';
import { DEMO_PASSWORD, SECOND_ACCOUNT_NAME, demoUsers } from './demo-credentials.js';

function house(
  accountId: string,
  input: Partial<HouseRecord> & Pick<HouseRecord, 'name'>,
): HouseRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    accountId,
    type: 'house',
    businessName: `${input.name} LLC`,
    status: 'active',
    address: '',
    city: '',
    state: '',
    zip: '',
    country: 'USA',
    phone: '',
    email: '',
    website: null,
    timezone: 'America/New_York',
    createdAt: now,
    updatedAt: now,
    ...input,
  };
}

async function person(
  input: { email: string; firstName: string; lastName: string },
  passwordHash: string,
) {
  return (
    (await userByEmail(input.email)) ??
    createUser(
      newUserRecord({
        ...input,
        passwordHash,
        emailVerified: true,
        termsAccepted: true,
        timezone: 'America/New_York',
      }),
    )
  );
}

function member(
  accountId: string,
  user: UserRecord,
  role: AssignableRole,
  houseIds: string[],
): MembershipRecord {
  const now = new Date().toISOString();
  const permissions = defaultPermissions(role);
  return {
    id: membershipId(user.id),
    accountId,
    type: 'membership',
    userId: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`,
    role,
    permissions,
    houses: houseIds.map((houseId) => ({ houseId, role, permissions })),
    status: 'active',
    joinedAt: now,
    invitedBy: null,
    updatedAt: now,
  };
}

/**
 * The demo tenant, created on the first start: Harborview Auctions with two houses and a group,
 * an owner, an admin, a staff member and a viewer. The admin also works for a second account, so
 * signing in as them shows the account picker. Nothing happens when it already exists.
 */
export async function seedDemoTenant(log: Logger): Promise<void> {
  if (await userByEmail(demoUsers[0].email)) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [owner, admin, staff, viewer] = await Promise.all(
    demoUsers.map((entry) => person(entry, passwordHash)),
  );
  if (!owner || !admin || !staff || !viewer) throw new Error('demo users were not created');

  const account = await createOwnedAccount(owner, DEMO_ACCOUNT_NAME, 'organization', {
    subscription: demoAccountPlan.subscription,
  });
  const scope = { accountId: account.id };
  const houseIds = (await furnishAccount(systemContext(account.id), demoAccountPlan)).map(
    (created) => created.id,
  );
  const [fineArtId] = houseIds;
  if (!fineArtId) throw new Error('the demo houses were not created');
  await accountsRepo.createTogether(scope, [
    member(account.id, admin, 'admin', houseIds),
    member(account.id, staff, 'staff', [fineArtId]),
    member(account.id, viewer, 'viewer', houseIds),
  ]);

  for (const joined of [admin, staff, viewer]) {
    const role = demoUsers.find((entry) => entry.email === joined.email)?.role ?? 'staff';
    await notify({ scope }, [owner.id], {
      kind: 'team.member-joined',
      title: `${joined.firstName} ${joined.lastName} joined ${DEMO_ACCOUNT_NAME}`,
      body: `${joined.firstName} ${joined.lastName} (${joined.email}) joined as ${roleLabels[role as AssignableRole]}.`,
      link: '/security/users',
    });
  }

  await seedDemoBidders(systemContext(account.id), {
    userId: owner.id,
    name: `${owner.firstName} ${owner.lastName}`,
  });
  await seedDemoAuctions(systemContext(account.id));
  await seedDemoInventory(systemContext(account.id));
  await seedDemoPayments(systemContext(account.id));
  const named = (user: typeof owner) => ({
    userId: user.id,
    name: `${user.firstName} ${user.lastName}`,
    email: user.email,
  });
  await seedDemoCases(systemContext(account.id), named(owner), named(admin));
  await seedDemoPlatforms(account.id, `${owner.firstName} ${owner.lastName}`);
  if (settings().STRIPE_SECRET_KEY) {
    // The demo's plan is a real subscription (on Stripe's test card), so the Plan tab shows it.
    await seedSubscription(account.id, owner, {
      tierId: 'tier-3',
      addOnIds: ['inventory', 'payments'],
    }).catch((error: unknown) => {
      log.warn('the demo subscription was not created at Stripe', {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  const lakesideOwner = await person(
    { email: 'owner@lakeside.demo', firstName: 'Lena', lastName: 'Marsh' },
    passwordHash,
  );
  const lakeside = await createOwnedAccount(lakesideOwner, SECOND_ACCOUNT_NAME, 'individual');
  const lakesideHouse = house(lakeside.id, {
    name: 'Lakeside Gallery',
    city: 'Burlington',
    state: 'VT',
    zip: '05401',
  });
  await accountsRepo.createTogether({ accountId: lakeside.id }, [
    lakesideHouse,
    member(lakeside.id, admin, 'staff', [lakesideHouse.id]),
  ]);
  log.info('demo tenant created', { account: DEMO_ACCOUNT_NAME });
}
