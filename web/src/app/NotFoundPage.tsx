import { Body1, Button, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { Link } from 'react-router';

const useStyles = makeStyles({
  page: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalM,
    paddingBlock: tokens.spacingVerticalXXL,
  },
});

export default function NotFoundPage() {
  const styles = useStyles();
  return (
    <div className={styles.page}>
      <Title2 as="h1">Page not found</Title2>
      <Body1>
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </Body1>
      <Link to="/">
        <Button appearance="primary">Go to the start page</Button>
      </Link>
    </div>
  );
}
