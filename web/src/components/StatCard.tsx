import { Caption1, Card, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: '2px' },
  label: { color: tokens.colorNeutralForeground3 },
  value: {
    fontSize: tokens.fontSizeHero700,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: 1.1,
  },
});

/** A figure with its label, as on the Duplicates and Analytics summary rows. */
export function StatCard({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <Caption1 className={styles.label}>{label}</Caption1>
      <span className={styles.value}>{value}</span>
    </Card>
  );
}
