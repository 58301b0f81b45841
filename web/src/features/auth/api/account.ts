import {
  passwordStrengthSchema,
  type resetPasswordSchema,
} from '@contracts/identity/auth/auth.schema';
import { invitationValidationSchema } from '@contracts/identity/team/team.schema';
import useSWR from 'swr';
import useSWRImmutable from 'swr/immutable';
import type { z } from 'zod';
import { apiRequest, authApi } from '../../../lib/api-client';

/** The calls of the signed-out screens other than signing in. */

export function requestPasswordReset(email: string) {
  return apiRequest<{ message: string }>(authApi('/password/reset-request'), {
    method: 'POST',
    auth: false,
    body: { email },
  });
}

export function resetPassword(body: z.input<typeof resetPasswordSchema>) {
  return apiRequest<{ message: string }>(authApi('/password/reset'), {
    method: 'POST',
    auth: false,
    body,
  });
}

/** Confirms the address once per link, however often the page renders. */
export function useEmailConfirmation(token: string | null) {
  return useSWRImmutable(token ? ['verify-email', token] : null, ([, value]) =>
    apiRequest(authApi('/verify-email'), { method: 'POST', auth: false, body: { token: value } }),
  );
}

export function useInvitation(code: string | null) {
  return useSWR(
    code ? authApi(`/invitation/validate/${encodeURIComponent(code)}`) : null,
    (url: string) => apiRequest(url, { auth: false, schema: invitationValidationSchema }),
  );
}

export function usePasswordStrength(password: string, email: string, name: string) {
  return useSWR(password ? ['strength', password, email, name] : null, () =>
    apiRequest(authApi('/passwords/strength'), {
      method: 'POST',
      auth: false,
      body: { password, email, name },
      schema: passwordStrengthSchema,
    }),
  );
}
