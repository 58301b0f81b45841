import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/AppLink';
import { messageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-store';
import { useEmailConfirmation } from '../api/account';
import { AuthLayout } from './AuthLayout';

/** Where the confirmation link in the email leads; works signed in or out. */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const auth = useAuth();
  const result = useEmailConfirmation(token);
  return (
    <AuthLayout title="Confirm your email">
      {!token ? (
        <MessageBar intent="error">
          <MessageBarBody>This link is incomplete.</MessageBarBody>
        </MessageBar>
      ) : result.isLoading ? (
        <Spinner label="Confirming..." />
      ) : result.error ? (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{messageOf(result.error)}</MessageBarBody>
        </MessageBar>
      ) : (
        <MessageBar intent="success" role="status">
          <MessageBarBody>Your email address is confirmed.</MessageBarBody>
        </MessageBar>
      )}
      <AppLink to={auth.status === 'signed-in' ? '/' : '/login'}>
        {auth.status === 'signed-in' ? 'Go to Lotwise' : 'Sign in'}
      </AppLink>
    </AuthLayout>
  );
}
