import {
  type changeEmailSchema,
  type changePasswordSchema,
} from '@contracts/identity/auth/auth.schema';
import { sessionViewSchema } from '@contracts/identity/sessions/sessions.schema';
import { userViewSchema, type profileUpdateSchema } from '@contracts/identity/shared/users.schema';
import useSWR, { useSWRConfig } from 'swr';
import { z } from 'zod';
import { apiRequest, authApi } from '../../../lib/api-client';
import { updateSignedInUser } from '../../../lib/auth-store';
import { fetchWith } from '../../../lib/swr';

/** The form sends the language the person has, which the service checks against its list. */
type ProfileChanges = Omit<z.input<typeof profileUpdateSchema>, 'language'> & { language?: string };

const profileKey = authApi('/users/me/profile');

/** The profile as the service has it; the form starts from it and saves against its ETag. */
export const useProfile = () =>
  useSWR(profileKey, fetchWith(userViewSchema), {
    // A newer ETag starts the form again; on focus that would drop what was being typed.
    revalidateOnFocus: false,
  });

/** Saved against the profile on screen: a change made meanwhile answers 412. */
export function useSaveProfile() {
  const { mutate } = useSWRConfig();
  return async (changes: ProfileChanges, etag: string) => {
    const saved = await apiRequest(profileKey, {
      method: 'PUT',
      body: changes,
      headers: { 'if-match': `"${etag}"` },
      schema: userViewSchema,
    });
    updateSignedInUser(saved);
    await mutate(profileKey, saved, { revalidate: false });
  };
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
