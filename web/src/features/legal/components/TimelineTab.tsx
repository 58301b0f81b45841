import {
  Badge,
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowRightRegular, BotRegular, PersonRegular } from '@fluentui/react-icons';
import { messageOf } from '../../../lib/api-client';
import { useTimeline } from '../api/legal';
import { CaseStatusBadge, formatMoment } from './case-style';

const useStyles = makeStyles({
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    borderLeft: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke2}`,
    marginInlineStart: tokens.spacingHorizontalM,
  },
  entry: {
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    paddingInlineStart: tokens.spacingHorizontalXL,
    paddingBlock: tokens.spacingVerticalM,
  },
  dot: {
    position: 'absolute',
    insetInlineStart: `calc(-1 * ${tokens.spacingHorizontalM} - 1px)`,
    top: tokens.spacingVerticalM,
    width: '22px',
    height: '22px',
    borderRadius: tokens.borderRadiusCircular,
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    color: tokens.colorNeutralForeground2,
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  move: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  detail: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground2 },
});

/** Everything that happened to the case, newest first: who did it, or that automation did. */
export function TimelineTab({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const { data, error, mutate } = useTimeline(caseId);
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The timeline could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading timeline">
        <SkeletonItem size={48} />
      </Skeleton>
    );
  }
  if (!data.entries.length)
    return <Body1 className={styles.muted}>Nothing has happened yet.</Body1>;
  return (
    <ol className={styles.list} aria-label="Timeline, newest first">
      {data.entries.map((entry) => (
        <li key={entry.id} className={styles.entry}>
          <span className={styles.dot} aria-hidden="true">
            {entry.automated ? <BotRegular /> : <PersonRegular />}
          </span>
          <div className={styles.head}>
            <Text weight="semibold">{entry.action}</Text>
            {entry.toStatus ? (
              <span className={styles.move}>
                {entry.fromStatus ? (
                  <>
                    <CaseStatusBadge status={entry.fromStatus} />
                    <ArrowRightRegular aria-label="to" />
                  </>
                ) : null}
                <CaseStatusBadge status={entry.toStatus} />
              </span>
            ) : null}
            {entry.automated ? (
              <Badge appearance="outline" color="informative" icon={<BotRegular />}>
                Automated
              </Badge>
            ) : null}
          </div>
          {entry.detail ? <Body1 className={styles.detail}>{entry.detail}</Body1> : null}
          <Caption1 className={styles.muted}>
            {formatMoment(entry.at)} · {entry.by?.name ?? 'Lotwise automation'}
          </Caption1>
        </li>
      ))}
    </ol>
  );
}
