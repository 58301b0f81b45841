import { Body1, Button, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { reportError } from '../lib/report-error';

const useStyles = makeStyles({
  page: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
  },
});

export function CrashPage() {
  const styles = useStyles();
  return (
    <div className={styles.page} role="alert">
      <Title2 as="h1">Something went wrong</Title2>
      <Body1>
        This screen stopped working. The error has been reported. Reload the page to carry on.
      </Body1>
      <Button appearance="primary" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}

/** Shows a recovery page instead of a blank screen, and reports what broke. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportError(
      Object.assign(error, { stack: `${error.stack ?? ''}\n${info.componentStack ?? ''}` }),
    );
  }

  override render() {
    return this.state.failed ? <CrashPage /> : this.props.children;
  }
}

/** The router's error element: the same recovery page for errors inside a view. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportError(error), [error]);
  return <CrashPage />;
}
