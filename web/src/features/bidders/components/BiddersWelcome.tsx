import { Body1, Button, makeStyles, Subtitle1, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular, PeopleAddRegular, PersonAddRegular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  welcome: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    textAlign: 'center',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalL },
  },
  icon: { fontSize: '48px', color: tokens.colorBrandForeground1 },
  title: { margin: 0 },
  text: { maxWidth: '520px', color: tokens.colorNeutralForeground2 },
  actions: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    justifyContent: 'center',
    paddingTop: tokens.spacingVerticalS,
  },
});

/**
 * What a house with no bidders yet sees instead of an empty list: where to start. The buttons
 * show to those who may add or import.
 */
export function BiddersWelcome({ onAdd, onImport }: { onAdd?(): void; onImport?(): void }) {
  const styles = useStyles();
  return (
    <section className={styles.welcome} aria-labelledby="bidders-welcome-title">
      <PeopleAddRegular className={styles.icon} aria-hidden />
      <Subtitle1 as="h2" id="bidders-welcome-title" className={styles.title}>
        Welcome to Lotwise
      </Subtitle1>
      <Body1 as="p" className={styles.text}>
        {onAdd || onImport
          ? 'Start with your bidders: add them one at a time, or import your existing list from a CSV, Excel or JSON file. Each bidder is scored as they arrive, and possible duplicates are found for you.'
          : 'Your house has no bidders yet. Once your team adds or imports them, they appear here with their scores.'}
      </Body1>
      {onAdd || onImport ? (
        <div className={styles.actions}>
          {onAdd ? (
            <Button appearance="primary" icon={<PersonAddRegular />} onClick={onAdd}>
              Add Bidder
            </Button>
          ) : null}
          {onImport ? (
            <Button icon={<ArrowUploadRegular />} onClick={onImport}>
              Import
            </Button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
