import { TenantRepository, type AccountScope, type Stored } from '../../platform/repo.js';
import type { InvitationRecord } from '../shared/identity.model.js';

/** Invitations live in their account's partition, beside its memberships. */
const invitations = new TenantRepository<InvitationRecord>('accounts');

const PENDING = "c.type = 'invitation' AND c.status = 'pending'";

export const invitationsRepo = {
  async find(scope: AccountScope, id: string): Promise<Stored<InvitationRecord> | undefined> {
    const found = await invitations.find(scope, id);
    return found?.type === 'invitation' ? found : undefined;
  },
  pending: (scope: AccountScope) => invitations.all(scope, { where: PENDING }),
  async pendingFor(scope: AccountScope, email: string) {
    const [found] = await invitations.all(scope, {
      where: `${PENDING} AND c.email = @email`,
      parameters: [{ name: '@email', value: email }],
    });
    return found;
  },
  create: (scope: AccountScope, invitation: InvitationRecord) =>
    invitations.create(scope, invitation),
  /** Replaces only if nobody changed the invitation since `etag` was read; otherwise 412. */
  replace: (scope: AccountScope, invitation: InvitationRecord, etag: string) =>
    invitations.replace(scope, invitation, etag),
};
