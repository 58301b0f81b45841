import { Button } from '@fluentui/react-components';
import { PublicClientApplication } from '@azure/msal-browser';
import { MsalProvider, useMsal } from '@azure/msal-react';
import { useMemo } from 'react';
import { useAction } from '../../../lib/use-action';
import { signInWithMicrosoft } from '../api/session';

interface Provider {
  clientId: string;
  authority: string;
  redirectUri: string;
}

function MicrosoftButton({
  invitationCode,
  onError,
}: {
  invitationCode?: string | undefined;
  onError(message: string): void;
}) {
  const { instance } = useMsal();
  const signIn = useAction(
    async () => {
      await instance.initialize();
      const result = await instance.loginPopup({ scopes: ['openid', 'profile', 'email'] });
      await signInWithMicrosoft({ idToken: result.idToken, invitationCode });
    },
    { fallback: 'Microsoft sign-in did not complete', onError },
  );
  return (
    <Button appearance="secondary" onClick={() => void signIn.run()} disabled={signIn.busy}>
      {signIn.busy ? 'Waiting for Microsoft...' : 'Sign in with Microsoft'}
    </Button>
  );
}

/** The Microsoft button, with MSAL configured for this deployment's Entra tenant. */
export default function MicrosoftSignIn({
  provider,
  invitationCode,
  onError,
}: {
  provider: Provider;
  invitationCode?: string | undefined;
  onError(message: string): void;
}) {
  const msal = useMemo(
    () =>
      new PublicClientApplication({
        auth: {
          clientId: provider.clientId,
          authority: provider.authority,
          redirectUri: provider.redirectUri,
        },
        cache: { cacheLocation: 'sessionStorage' },
      }),
    [provider.clientId, provider.authority, provider.redirectUri],
  );
  return (
    <MsalProvider instance={msal}>
      <MicrosoftButton invitationCode={invitationCode} onError={onError} />
    </MsalProvider>
  );
}
