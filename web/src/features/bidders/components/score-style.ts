import { tokens } from '@fluentui/react-components';
import type { Bidder, BidderListItem, ScoreType } from '@contracts/bidders/bidders.schema';
import { scoreComponents } from '@contracts/scoring/scoring.schema';

/** The spec's row tints by score: 90 and above green, 80-89 yellow, 60-79 orange, below 60 red. */
export function scoreBand(score: number): 'green' | 'yellow' | 'orange' | 'red' {
  if (score >= 90) return 'green';
  if (score >= 80) return 'yellow';
  if (score >= 60) return 'orange';
  return 'red';
}

/** A score with no evidence behind any of its components: a bidder nobody has dealt with yet. */
export const isUnknown = (score: { neutral: readonly string[] }) =>
  score.neutral.length === scoreComponents.length;

/** The band a score is shown in: neutral for an unknown bidder, who is not a bad one. */
export const bandOf = (score: { score: number; neutral: readonly string[] }) =>
  isUnknown(score) ? 'neutral' : scoreBand(score.score);

export const bandColour = {
  neutral: tokens.colorNeutralForeground3,
  green: tokens.colorPaletteGreenForeground1,
  yellow: tokens.colorPaletteMarigoldForeground1,
  orange: tokens.colorPaletteDarkOrangeForeground1,
  red: tokens.colorPaletteRedForeground1,
} as const;

/** Each band's edge colour, strong enough for a stripe in either theme. */
export const bandEdge = {
  neutral: tokens.colorNeutralStroke1,
  green: tokens.colorPaletteGreenBorderActive,
  yellow: tokens.colorPaletteYellowBorderActive,
  orange: tokens.colorPaletteDarkOrangeBorderActive,
  red: tokens.colorPaletteRedBorderActive,
} as const;

/**
 * A row's tint: 6% of the band's colour over the table's background, so it stays a hint in
 * both themes (the palette's own backgrounds are near white in light but deep fills in dark).
 */
export const bandTint = {
  neutral: tokens.colorNeutralBackground1,
  green: `color-mix(in srgb, ${bandEdge.green} 6%, ${tokens.colorNeutralBackground1})`,
  yellow: `color-mix(in srgb, ${bandEdge.yellow} 6%, ${tokens.colorNeutralBackground1})`,
  orange: `color-mix(in srgb, ${bandEdge.orange} 6%, ${tokens.colorNeutralBackground1})`,
  red: `color-mix(in srgb, ${bandEdge.red} 6%, ${tokens.colorNeutralBackground1})`,
} as const;

/** The spec's confidence badges: 95+ green, 85-94 yellow, 75-84 orange, below 75 red. */
export function confidenceColour(confidence: number): 'success' | 'warning' | 'severe' | 'danger' {
  if (confidence >= 95) return 'success';
  if (confidence >= 85) return 'warning';
  if (confidence >= 75) return 'severe';
  return 'danger';
}

export const tierBadge = {
  Premium: 'brand',
  Gold: 'warning',
  Silver: 'informative',
  Bronze: 'severe',
  New: 'subtle',
} as const;

// Not 'subtle': as an outline badge (the profile's) that is white text, unreadable on light.
export const statusBadge = {
  Active: 'success',
  Inactive: 'informative',
  Suspended: 'danger',
  Pending: 'warning',
} as const;

export const autoInviteBadge = {
  'Auto-Invite': 'success',
  'Manual Review': 'warning',
  'Auto-Deny': 'danger',
} as const;

export const scoreOf = (bidder: Bidder | BidderListItem, type: ScoreType) =>
  type === 'custom' ? bidder.customScore : bidder.lotwiseScore;

export const scoreTypeLabel = (type: ScoreType) => (type === 'custom' ? 'Custom' : 'Lotwise');

export const fullName = (bidder: { firstName: string; lastName: string }) =>
  `${bidder.firstName} ${bidder.lastName}`;
