import { Caption1, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { AutomationRules } from '@contracts/scoring/scoring.schema';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bar: {
    display: 'flex',
    height: '28px',
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  band: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minWidth: 0,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
  },
  deny: {
    backgroundColor: tokens.colorPaletteRedBackground2,
    color: tokens.colorPaletteRedForeground2,
  },
  review: {
    backgroundColor: tokens.colorPaletteYellowBackground2,
    color: tokens.colorNeutralForeground1,
  },
  invite: {
    backgroundColor: tokens.colorPaletteGreenBackground2,
    color: tokens.colorPaletteGreenForeground2,
  },
  scale: {
    display: 'flex',
    justifyContent: 'space-between',
    color: tokens.colorNeutralForeground3,
  },
  rules: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    '@media (max-width: 560px)': { gridTemplateColumns: '1fr' },
  },
  term: { fontWeight: tokens.fontWeightSemibold },
  definition: { margin: 0, color: tokens.colorNeutralForeground2 },
});

const tierWords: Record<AutomationRules['autoInvite']['minimumTier'], string> = {
  Bronze: 'Bronze or higher',
  Silver: 'Silver or higher',
  Gold: 'Gold or higher',
  Premium: 'Premium',
};

/** What each automation rule decides, in words, from the rules as they stand. */
export function automationSentences(rules: AutomationRules) {
  const { autoInvite: invite, autoDeny: deny } = rules;
  const inviteConditions = [
    invite.requirePaymentHistory ? 'a clean payment record' : null,
    invite.requireMinimumTier ? `tier ${tierWords[invite.minimumTier]}` : null,
  ].filter(Boolean);
  const denyReasons = [
    `a custom score below ${deny.scoreThreshold} earned on a real record`,
    deny.checkDisputes ? 'any dispute' : null,
    deny.checkPaymentDefaults ? 'any payment default' : null,
  ].filter(Boolean);
  return {
    invite: invite.enabled
      ? `Custom score ${invite.scoreThreshold} or more${
          inviteConditions.length ? `, with ${inviteConditions.join(' and ')}` : ''
        }: invited to your auctions automatically.`
      : 'Off: no bidder is invited automatically.',
    review:
      'Everyone else, including every bidder with no record yet: someone on your team decides.',
    deny: deny.enabled
      ? `${denyReasons.join(', or ').replace(/^./, (first) => first.toUpperCase())}: not invited.`
      : 'Off: no bidder is refused automatically.',
  };
}

/**
 * The one model of the automation rules, shown the same way wherever they are: the custom-score
 * scale split into Auto-Deny, Manual Review and Auto-Invite, and what each decides.
 */
export function AutomationBands({ rules }: { rules: AutomationRules }) {
  const styles = useStyles();
  const deny = rules.autoDeny.enabled ? rules.autoDeny.scoreThreshold : 0;
  const invite = rules.autoInvite.enabled ? rules.autoInvite.scoreThreshold : 100;
  const reviewEnd = Math.max(deny, invite);
  const bands = [
    { key: 'deny', label: 'Auto-Deny', width: deny, className: styles.deny },
    { key: 'review', label: 'Manual Review', width: reviewEnd - deny, className: styles.review },
    { key: 'invite', label: 'Auto-Invite', width: 100 - reviewEnd, className: styles.invite },
  ].filter((band) => band.width > 0);
  const words = automationSentences(rules);
  return (
    <div className={styles.root}>
      <div
        className={styles.bar}
        role="img"
        aria-label={`Custom score 0 to 100: ${bands
          .map((band) => `${band.label} ${band.width} points`)
          .join(', ')}`}
      >
        {bands.map((band) => (
          <span
            key={band.key}
            className={mergeClasses(styles.band, band.className)}
            style={{ width: `${band.width}%` }}
            aria-hidden="true"
          >
            {band.width >= 18 ? band.label : ''}
          </span>
        ))}
      </div>
      <div className={styles.scale} aria-hidden="true">
        <Caption1>0</Caption1>
        <Caption1>100</Caption1>
      </div>
      <dl className={styles.rules}>
        <dt className={styles.term}>Auto-Invite</dt>
        <dd className={styles.definition}>{words.invite}</dd>
        <dt className={styles.term}>Manual Review</dt>
        <dd className={styles.definition}>{words.review}</dd>
        <dt className={styles.term}>Auto-Deny</dt>
        <dd className={styles.definition}>{words.deny}</dd>
      </dl>
    </div>
  );
}
