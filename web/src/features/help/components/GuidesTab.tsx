import {
  Body1,
  Button,
  Caption1,
  Card,
  CardFooter,
  CardHeader,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowRightRegular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { guides } from '../content';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: { padding: tokens.spacingHorizontalL },
  topics: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
});

/** The guides, one per feature that exists; Go to Feature opens the screen a guide is about. */
export function GuidesTab() {
  const styles = useStyles();
  const navigate = useNavigate();
  return (
    <div className={styles.grid}>
      {guides.map((guide) => (
        <Card key={guide.id} className={styles.card}>
          <CardHeader
            header={<Subtitle2 as="h2">{guide.title}</Subtitle2>}
            description={<Caption1>{guide.summary}</Caption1>}
          />
          <ul className={styles.topics}>
            {guide.topics.map((topic) => (
              <li key={topic}>
                <Body1>{topic}</Body1>
              </li>
            ))}
          </ul>
          <CardFooter>
            <Button
              icon={<ArrowRightRegular />}
              iconPosition="after"
              onClick={() => navigate(guide.path)}
            >
              Go to Feature
            </Button>
          </CardFooter>
        </Card>
      ))}
    </div>
  );
}
