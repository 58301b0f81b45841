import {
  backupCodesSchema,
  backupCodeStatusSchema,
  mfaMethodViewSchema,
  mfaPolicySchema,
  mfaSetupResponseSchema,
  mfaStatusSchema,
  mfaVerifyResponseSchema,
  permissionCatalogueSchema,
  securitySettingsSchema,
  teamMemberSchema,
  type MfaPolicy,
  type SecuritySettings,
} from '@contracts/identity/identity.schema';
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
export const useMfaPolicy = () => useSWR(keys.policy, fetchWith(mfaPolicySchema));
export const useSecuritySettings = () => useSWR(keys.settings, fetchWith(securitySettingsSchema));
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
    update: async (id: string, changes: { enabled?: boolean; primary?: true; name?: string }) => {
      await apiRequest(authApi(`/security/2fa/methods/${id}`), { method: 'PUT', body: changes });
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

export async function saveMfaPolicy(policy: Omit<MfaPolicy, 'updatedAt'>) {
  return apiRequest(authApi('/security/mfa-policy'), {
    method: 'PUT',
    body: policy,
    schema: mfaPolicySchema,
  });
}

export async function saveSecuritySettings(settings: Omit<SecuritySettings, 'updatedAt'>) {
  return apiRequest(authApi('/security/settings'), {
    method: 'PUT',
    body: settings,
    schema: securitySettingsSchema,
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
    changeRole: (userId: string, role: 'admin' | 'staff' | 'viewer') =>
      after(
        apiRequest(authApi(`/auction-house/users/${userId}/role`), {
          method: 'PUT',
          body: { role },
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
