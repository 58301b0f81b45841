import { makeStyles, mergeClasses, Spinner, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  box: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXXL },
  full: { minHeight: '100vh', alignItems: 'center' },
});

export function PageLoading({ fullPage }: { fullPage?: boolean }) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.box, fullPage && styles.full)}>
      <Spinner label="Loading…" />
    </div>
  );
}
