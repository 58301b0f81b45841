import {
  Badge,
  Button,
  Caption1,
  Link,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  CallRegular,
  ClockRegular,
  DeleteRegular,
  EditRegular,
  GlobeRegular,
  LocationRegular,
  MailRegular,
  PeopleRegular,
} from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { countOf } from '../../../lib/plural';
import type { House } from '../api/houses';
import { placeOf, timezoneCity } from './house-form';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minWidth: 0,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  head: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  title: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  name: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  facts: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  fact: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  icon: { flexShrink: 0, marginTop: '2px', color: tokens.colorNeutralForeground3 },
  // Pinned to the bottom, so the actions of cards side by side line up.
  foot: {
    display: 'flex',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalXS,
    marginTop: 'auto',
    paddingTop: tokens.spacingVerticalS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
});

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <li className={styles.fact}>
      <span className={styles.icon} role="img" aria-label={label}>
        {icon}
      </span>
      <Text>{children}</Text>
    </li>
  );
}

/**
 * One auction house: who it is, where, how to reach it, its staff and its time; Edit and Delete
 * for those who may change houses.
 */
export function HouseCard({
  house,
  mayEdit,
  onEdit,
  onDelete,
}: {
  house: House;
  mayEdit: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const styles = useStyles();
  const active = house.status === 'active';
  const place = placeOf(house);
  return (
    <article className={styles.card} aria-label={house.name}>
      <div className={styles.head}>
        <div className={styles.title}>
          <h3 className={styles.name}>{house.name}</h3>
          <Caption1 className={styles.muted}>{house.businessName}</Caption1>
        </div>
        <Badge appearance="tint" color={active ? 'success' : 'informative'}>
          {active ? 'Active' : 'Inactive'}
        </Badge>
      </div>
      <ul className={styles.facts}>
        {house.address || place ? (
          <Fact icon={<LocationRegular />} label="Address">
            {[house.address, place].filter(Boolean).join(', ')}
          </Fact>
        ) : null}
        {house.phone ? (
          <Fact icon={<CallRegular />} label="Phone">
            {house.phone}
          </Fact>
        ) : null}
        {house.email ? (
          <Fact icon={<MailRegular />} label="Email">
            {house.email}
          </Fact>
        ) : null}
        {house.website ? (
          <Fact icon={<GlobeRegular />} label="Website">
            <Link href={house.website} target="_blank" rel="noopener noreferrer">
              {house.website.replace(/^https?:\/\//, '')}
            </Link>
          </Fact>
        ) : null}
        <Fact icon={<PeopleRegular />} label="Staff">
          {countOf(house.staffCount, 'staff member')}
        </Fact>
        <Fact icon={<ClockRegular />} label="Time zone">
          {timezoneCity(house.timezone)} time · {house.currency}
        </Fact>
      </ul>
      {mayEdit ? (
        <div className={styles.foot}>
          <Button size="small" appearance="subtle" icon={<EditRegular />} onClick={onEdit}>
            Edit
          </Button>
          <Button size="small" appearance="subtle" icon={<DeleteRegular />} onClick={onDelete}>
            Delete
          </Button>
        </div>
      ) : null}
    </article>
  );
}
