import { PageLoading } from '../../../components/PageLoading';

/**
 * Where Microsoft returns the sign-in popup. The window that opened it reads the answer from this
 * address and closes it, so the page only has to stay put.
 */
export default function AuthCallbackPage() {
  return <PageLoading fullPage />;
}
