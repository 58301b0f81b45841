import {
  Avatar,
  Badge,
  Body1,
  Caption1,
  Card,
  Checkbox,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
} from '@fluentui/react-components';
import type {
  AssessmentItem,
  Recommendation,
  RiskLevel,
} from '@contracts/auctions/assessment/assessment.schema';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  selected: {
    outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    outlineOffset: '-2px',
  },
  // Dimmed by its background, not by opacity: its text keeps its contrast.
  invited: { backgroundColor: tokens.colorNeutralBackground3 },
  head: {
    display: 'grid',
    gridTemplateColumns: 'auto minmax(0, 1fr) auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
  },
  who: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  badges: {
    display: 'flex',
    gap: tokens.spacingHorizontalXS,
    flexWrap: 'wrap',
    alignItems: 'center',
  },
  facts: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXS,
  },
  fact: { display: 'flex', flexDirection: 'column' },
  insights: { margin: 0 },
  chips: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  chip: {
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground4,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
  ring: { flexShrink: 0 },
  ringTrack: { stroke: tokens.colorNeutralStroke2 },
  ringText: {
    fill: tokens.colorNeutralForeground1,
    fontSize: '15px',
    fontWeight: tokens.fontWeightSemibold,
  },
  high: { stroke: tokens.colorPaletteGreenForeground1 },
  middle: { stroke: tokens.colorBrandForeground1 },
  low: { stroke: tokens.colorPaletteDarkOrangeForeground1 },
});

export const recommendationColour = {
  'Auto-Invite': 'success',
  Consider: 'brand',
  Review: 'warning',
  Skip: 'informative',
} as const satisfies Record<Recommendation, string>;

const riskColour = {
  Low: 'success',
  Medium: 'warning',
  High: 'danger',
} as const satisfies Record<RiskLevel, string>;

const RADIUS = 22;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The match score as a ring filled to its share of 100. */
function MatchRing({ score }: { score: number }) {
  const styles = useStyles();
  const band = score >= 80 ? styles.high : score >= 60 ? styles.middle : styles.low;
  return (
    <svg
      className={styles.ring}
      width="56"
      height="56"
      viewBox="0 0 56 56"
      role="img"
      aria-label={`Match score ${score} of 100`}
    >
      <circle className={styles.ringTrack} cx="28" cy="28" r={RADIUS} fill="none" strokeWidth="5" />
      <circle
        className={band}
        cx="28"
        cy="28"
        r={RADIUS}
        fill="none"
        strokeWidth="5"
        strokeLinecap="round"
        strokeDasharray={`${(CIRCUMFERENCE * score) / 100} ${CIRCUMFERENCE}`}
        transform="rotate(-90 28 28)"
      />
      <text
        className={styles.ringText}
        x="28"
        y="28"
        textAnchor="middle"
        dominantBaseline="central"
      >
        {score}
      </text>
    </svg>
  );
}

const fullNameOf = (item: AssessmentItem) =>
  `${item.bidder.firstName} ${item.bidder.lastName}`.trim();

/** Choosing the card for "Send Selected": off once the bidder is invited. */
export interface CardSelection {
  selected: boolean;
  disabled: boolean;
  onChange(selected: boolean): void;
}

/**
 * One bidder as the assessment sees them: who, the recommendation and match score, their
 * standing, the AI's insights and the reasons behind them. With `selection`, a checkbox picks
 * the bidder to invite.
 */
export function AssessmentCard({
  item,
  selection,
}: {
  item: AssessmentItem;
  selection?: CardSelection;
}) {
  const styles = useStyles();
  const name = fullNameOf(item);
  const { bidder } = item;
  return (
    <Card
      className={mergeClasses(
        styles.card,
        item.invited && selection ? styles.invited : undefined,
        selection?.selected ? styles.selected : undefined,
      )}
      role="listitem"
      aria-label={name}
    >
      <div className={styles.head}>
        <Avatar name={name} color="colorful" size={40} />
        <div className={styles.who}>
          {selection ? (
            <Checkbox
              checked={selection.selected}
              disabled={selection.disabled}
              onChange={(_, data) => selection.onChange(data.checked === true)}
              label={
                <Text weight="semibold" className={styles.name}>
                  {name}
                </Text>
              }
            />
          ) : (
            <Text weight="semibold" className={styles.name}>
              {name}
            </Text>
          )}
          <Caption1 className={styles.muted}>{bidder.bidderId}</Caption1>
        </div>
        <MatchRing score={item.matchScore} />
      </div>
      <div className={styles.badges}>
        <Badge appearance="filled" color={recommendationColour[item.recommendation]}>
          {item.recommendation}
        </Badge>
        <Badge appearance="tint" color={riskColour[item.riskLevel]}>
          {item.riskLevel} risk
        </Badge>
        {item.invited ? (
          <Badge appearance="outline" color="informative">
            Invited
          </Badge>
        ) : null}
      </div>
      <div className={styles.facts}>
        <span className={styles.fact}>
          <Caption1 className={styles.muted}>Lotwise score</Caption1>
          <Text weight="semibold">
            {bidder.lotwiseScore.score} · {bidder.lotwiseScore.tier}
          </Text>
        </span>
        <span className={styles.fact}>
          <Caption1 className={styles.muted}>Preferred categories</Caption1>
          <Text>{bidder.preferredCategories.join(', ') || 'None recorded'}</Text>
        </span>
      </div>
      <Body1 as="p" className={styles.insights}>
        {item.aiInsights}
      </Body1>
      {item.reasons.length ? (
        <ul className={styles.chips} aria-label={`Reasons for ${name}`}>
          {item.reasons.map((reason) => (
            <li key={reason} className={styles.chip}>
              {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
