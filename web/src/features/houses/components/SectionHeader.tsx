import { Caption1, CardHeader, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import type { ReactElement, ReactNode } from 'react';

const useStyles = makeStyles({
  // The button sits beside the title where it fits and drops below it on a phone, rather than
  // squeezing the title into a narrow column as CardHeader's own action slot does.
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingVerticalS,
  },
  header: { flex: '1 1 280px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

/** A card's heading with its icon and description, and the card's main button if any. */
export function SectionHeader({
  icon,
  title,
  description,
  action,
}: {
  icon: ReactElement;
  title: string;
  description: string;
  action?: ReactNode;
}) {
  const styles = useStyles();
  return (
    <div className={styles.row}>
      <CardHeader
        className={styles.header}
        image={icon}
        header={<Subtitle2 as="h2">{title}</Subtitle2>}
        description={<Caption1 className={styles.muted}>{description}</Caption1>}
      />
      {action}
    </div>
  );
}
