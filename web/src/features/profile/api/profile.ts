import {
  sessionViewSchema,
  userViewSchema,
  type changeEmailSchema,
  type changePasswordSchema,
  type profileUpdateSchema,
} from '@contracts/identity/identity.schema';
import useSWR, { useSWRConfig } from 'swr';
import { z } from 'zod';
import { apiRequest, authApi } from '../../../lib/api-client';
import { updateSignedInUser } from '../../../lib/auth-store';
import { fetchWith } from '../../../lib/swr';

/** The form sends the language the person has, which the service checks against its list. */
type ProfileChanges = Omit<z.input<typeof profileUpdateSchema>, 'language'> & { language?: string };

export async function saveProfile(changes: ProfileChanges) {
  updateSignedInUser(
    await apiRequest(authApi('/users/me/profile'), {
      method: 'PUT',
      body: changes,
      schema: userViewSchema,
    }),
  );
}

export function changePassword(body: z.input<typeof changePasswordSchema>) {
  return apiRequest<{ message: string }>(authApi('/users/me/change-password'), {
    method: 'POST',
    body,
  });
}

export async function changeEmail(body: z.input<typeof changeEmailSchema>) {
  const reply = await apiRequest(authApi('/users/me/change-email'), {
    method: 'POST',
    body,
    schema: z.object({ user: userViewSchema, message: z.string() }),
  });
  updateSignedInUser(reply.user);
  return reply;
}

export function resendEmailConfirmation() {
  return apiRequest(authApi('/verify-email/resend'), { method: 'POST' });
}

const sessionsKey = authApi('/me/sessions');

export const useSessions = () =>
  useSWR(sessionsKey, fetchWith(z.object({ sessions: z.array(sessionViewSchema) })));

/** Signs sessions out; each refreshes the list. */
export function useSessionActions() {
  const { mutate } = useSWRConfig();
  return {
    revoke: async (id: string) => {
      await apiRequest(authApi(`/me/sessions/${id}`), { method: 'DELETE' });
      await mutate(sessionsKey);
    },
    revokeOthers: async () => {
      const reply = await apiRequest<{ revoked: number }>(authApi('/sessions/revoke-others'), {
        method: 'POST',
      });
      await mutate(sessionsKey);
      return reply;
    },
  };
}
