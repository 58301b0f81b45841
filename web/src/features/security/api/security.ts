import {
  backupCodesSchema,
  backupCodeStatusSchema,
  mfaMethodViewSchema,
  mfaPolicyViewSchema,
  mfaSetupResponseSchema,
  mfaStatusSchema,
  mfaVerifyResponseSchema,
  securitySettingsViewSchema,
  type MfaPolicyUpdate,
  type SecuritySettingsUpdate,
} from '@contracts/identity/mfa/mfa.schema';
import { permissionCatalogueSchema, teamMemberSchema } from '@contracts/identity/team/team.schema';
import useSWR, { useSWRConfig } from 'swr';
import { z } from 'zod';
import { apiRequest, authApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

export const keys = {
  status: authApi('/security/2fa/setup'),
  methods: authApi('/security/2fa/methods'),
  backup: authApi('/security/2fa/backup-codes'),
  policy: authApi('/security/mfa-policy'),
  settings: authApi('/security/settings'),
  team: authApi('/auction-house/users'),
  catalogue: authApi('/permissions'),
};

export const useMfaStatus = () => useSWR(keys.status, fetchWith(mfaStatusSchema));
export const useMfaMethods = () =>
  useSWR(keys.methods, fetchWith(z.object({ methods: z.array(mfaMethodViewSchema) })));
export const useBackupStatus = () => useSWR(keys.backup, fetchWith(backupCodeStatusSchema));
export const useMfaPolicy = () => useSWR(keys.policy, fetchWith(mfaPolicyViewSchema));
export const useSecuritySettings = () =>
  useSWR(keys.settings, fetchWith(securitySettingsViewSchema));
export const useTeam = () =>
  useSWR(keys.team, fetchWith(z.object({ users: z.array(teamMemberSchema) })));
export const usePermissionCatalogue = () =>
  useSWR(keys.catalogue, fetchWith(permissionCatalogueSchema));

/** The calls that change MFA; each refreshes what it affects. */
export function useMfaActions() {
  const { mutate } = useSWRConfig();
  const refresh = () =>
    Promise.all([
      mutate(keys.status),
      mutate(keys.methods),
      mutate(keys.backup),
      mutate(keys.team),
    ]);
  return {
    setup: (body: {
      type: 'authenticator' | 'sms' | 'email';
      name: string;
      phoneNumber?: string;
    }) =>
      apiRequest(authApi('/security/2fa/setup'), {
        method: 'POST',
        body,
        schema: mfaSetupResponseSchema,
      }),
    verify: async (methodId: string, code: string) => {
      const result = await apiRequest(authApi('/mfa/verify'), {
        method: 'POST',
        body: { methodId, code },
        schema: mfaVerifyResponseSchema,
      });
      await refresh();
      return result;
    },
    // Changed against the methods on screen: a change made meanwhile answers 412.
    update: async (
      method: { id: string; etag: string },
      changes: { enabled?: boolean; primary?: true; name?: string },
    ) => {
      await apiRequest(authApi(`/security/2fa/methods/${method.id}`), {
        method: 'PUT',
        body: changes,
        headers: { 'if-match': `"${method.etag}"` },
      });
      await refresh();
    },
    remove: async (id: string) => {
      await apiRequest(authApi(`/security/2fa/methods/${id}`), { method: 'DELETE' });
      await refresh();
    },
    regenerateBackupCodes: async () => {
      const result = await apiRequest(authApi('/security/2fa/backup-codes'), {
        method: 'POST',
        schema: backupCodesSchema,
      });
      await refresh();
      return result;
    },
  };
}

/** Saved against the policy on screen (its `etag`): a save made meanwhile answers 412. */
export async function saveMfaPolicy(policy: MfaPolicyUpdate, etag: string) {
  return apiRequest(authApi('/security/mfa-policy'), {
    method: 'PUT',
    body: policy,
    headers: { 'if-match': `"${etag}"` },
    schema: mfaPolicyViewSchema,
  });
}

/** Saved against the settings on screen (their `etag`): a save made meanwhile answers 412. */
export async function saveSecuritySettings(settings: SecuritySettingsUpdate, etag: string) {
  return apiRequest(authApi('/security/settings'), {
    method: 'PUT',
    body: settings,
    headers: { 'if-match': `"${etag}"` },
    schema: securitySettingsViewSchema,
  });
}

/** Team changes; each refreshes the team list. */
export function useTeamActions() {
  const { mutate } = useSWRConfig();
  const after = async <T>(work: Promise<T>) => {
    const result = await work;
    await mutate(keys.team);
    return result;
  };
  return {
    invite: (body: {
      email: string;
      role: 'admin' | 'staff' | 'viewer';
      personalMessage?: string;
    }) => after(apiRequest(authApi('/auction-house/invite'), { method: 'POST', body })),
    changeRole: (member: { id: string; etag: string }, role: 'admin' | 'staff' | 'viewer') =>
      after(
        apiRequest(authApi(`/auction-house/users/${member.id}/role`), {
          method: 'PUT',
          body: { role },
          headers: { 'if-match': `"${member.etag}"` },
        }),
      ),
    deactivate: (userId: string) =>
      after(apiRequest(authApi(`/auction-house/users/${userId}/deactivate`), { method: 'POST' })),
    reactivate: (userId: string) =>
      after(apiRequest(authApi(`/auction-house/users/${userId}/reactivate`), { method: 'POST' })),
    resetPassword: (userId: string) =>
      apiRequest(authApi(`/users/${userId}/reset-password`), { method: 'POST' }),
    resendInvitation: (invitationId: string) =>
      after(apiRequest(authApi(`/users/${invitationId}/invite`), { method: 'POST' })),
  };
}
