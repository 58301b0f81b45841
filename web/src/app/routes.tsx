import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RouteError } from './ErrorBoundary';
import { PageLoading } from '../components/PageLoading';
import { RootGate } from './RootGate';
import { HOME } from './shell/views';
import { RequireFeature } from './RequireFeature';

// Each screen is its own chunk: the sign-in screen loads none of the shell.
const LoginPage = lazy(() => import('../features/auth/components/LoginPage'));
const SignupPage = lazy(() => import('../features/auth/components/SignupPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/ResetPasswordPage'));
const VerifyEmailPage = lazy(() => import('../features/auth/components/VerifyEmailPage'));
const AuthCallbackPage = lazy(() => import('../features/auth/components/AuthCallbackPage'));
const AppShell = lazy(() => import('./shell/AppShell'));
const DashboardScreen = lazy(() => import('./screens/DashboardScreen'));
const BiddersScreen = lazy(() => import('./screens/BiddersScreen'));
const AuctionsPage = lazy(() => import('../features/auctions/components/AuctionsPage'));
const AuctionDetailPage = lazy(() => import('../features/auctions/components/AuctionDetailPage'));
const AuctionAssessmentPage = lazy(() => import('../features/auctions/components/AssessmentPanel'));
const LegalPage = lazy(() => import('../features/legal/components/LegalPage'));
const CaseDetailPage = lazy(() => import('../features/legal/components/CaseDetailPage'));
const RulesPage = lazy(() => import('../features/legal/components/rules/RulesPage'));
const HelpScreen = lazy(() => import('./screens/HelpScreen'));
const SecurityPage = lazy(() => import('../features/security/components/SecurityPage'));
const ProfilePage = lazy(() => import('../features/profile/components/ProfilePage'));
const SettingsScreen = lazy(() => import('./screens/SettingsScreen'));
const InventoryPage = lazy(() => import('../features/inventory/components/InventoryPage'));
const PaymentsPage = lazy(() => import('../features/payments/components/PaymentsPage'));
const DataUploadPage = lazy(() => import('../features/data-upload/components/DataUploadPage'));
const PremiumUpsellPage = lazy(() => import('../features/premium/components/PremiumUpsellPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));
const PolicyPage = lazy(() => import('../features/policies/components/PolicyPage'));
const PayPage = lazy(() => import('../features/portal/components/PayPage'));

const page = (element: ReactNode) => (
  <Suspense fallback={<PageLoading fullPage />}>{element}</Suspense>
);

/** The app's addresses: what each serves, kept apart from the router so tests can read it. */
export const routes: RouteObject[] = [
  {
    element: <RootGate />,
    errorElement: <RouteError />,
    children: [
      { path: 'login', element: page(<LoginPage />) },
      { path: 'signup', element: page(<SignupPage />) },
      { path: 'forgot-password', element: page(<ForgotPasswordPage />) },
      { path: 'reset-password', element: page(<ResetPasswordPage />) },
      { path: 'verify-email', element: page(<VerifyEmailPage />) },
      { path: 'auth/callback', element: page(<AuthCallbackPage />) },
      { path: 'terms', element: page(<PolicyPage name="terms" />) },
      { path: 'privacy', element: page(<PolicyPage name="privacy" />) },
      { path: 'pay/:token', element: page(<PayPage />) },
      {
        element: page(<AppShell />),
        children: [
          { index: true, element: <Navigate to={HOME} replace /> },
          { path: 'dashboard', element: <DashboardScreen /> },
          { path: 'auctions', element: <Navigate to="/auctions/current" replace /> },
          { path: 'auctions/current', element: <AuctionsPage view="current" /> },
          { path: 'auctions/upcoming', element: <AuctionsPage view="upcoming" /> },
          { path: 'auctions/past', element: <AuctionsPage view="past" /> },
          { path: 'auctions/new', element: <AuctionsPage creating /> },
          { path: 'auctions/:auctionId', element: <AuctionDetailPage section="overview" /> },
          { path: 'auctions/:auctionId/lots', element: <AuctionDetailPage section="lots" /> },
          {
            path: 'auctions/:auctionId/registrations',
            element: <AuctionDetailPage section="registrations" />,
          },
          { path: 'auctions/:auctionId/edit', element: <AuctionDetailPage section="edit" /> },
          { path: 'auctions/:auctionId/assessment', element: <AuctionAssessmentPage /> },
          { path: 'bidders/:tab?', element: <BiddersScreen /> },
          { path: 'legal', element: <Navigate to="/legal/cases" replace /> },
          { path: 'legal/cases', element: <LegalPage view="cases" /> },
          { path: 'legal/active', element: <LegalPage view="active" /> },
          { path: 'legal/analytics', element: <LegalPage view="analytics" /> },
          { path: 'legal/cases/new', element: <LegalPage creating /> },
          { path: 'legal/cases/non-payment', element: <LegalPage reporting /> },
          { path: 'legal/rules', element: <RulesPage /> },
          { path: 'legal/cases/:caseId/:tab?', element: <CaseDetailPage /> },
          { path: 'data-upload/:tab?', element: <DataUploadPage /> },
          { path: 'help/:tab?', element: <HelpScreen /> },
          { path: 'security/:tab?', element: <SecurityPage /> },
          { path: 'profile/:tab?', element: <ProfilePage /> },
          { path: 'settings/:tab?', element: <SettingsScreen /> },
          {
            path: 'inventory/:tab?',
            element: (
              <RequireFeature feature="inventory" offer={<PremiumUpsellPage feature="inventory" />}>
                <InventoryPage />
              </RequireFeature>
            ),
          },
          {
            path: 'payments/:tab?',
            element: (
              <RequireFeature feature="payments" offer={<PremiumUpsellPage feature="payments" />}>
                <PaymentsPage />
              </RequireFeature>
            ),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
