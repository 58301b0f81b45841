import {
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Tag,
  Text,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular, EditRegular, GroupRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { countOf } from '../../../lib/plural';
import type { House, HouseGroup } from '../api/houses';
import { SectionHeader } from './SectionHeader';

const useStyles = makeStyles({
  muted: { color: tokens.colorNeutralForeground2 },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  group: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    minWidth: 0,
  },
  titleRow: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    columnGap: tokens.spacingHorizontalS,
  },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  description: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  tags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  actions: { display: 'flex', flexShrink: 0, gap: tokens.spacingHorizontalXXS },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
  },
});

/**
 * The account's groups of houses: each with its description, how many houses and which, and for
 * those who may change them, edit and delete.
 */
export function GroupsCard({
  groups,
  houses,
  mayEdit,
  newGroupButton,
  onEdit,
  onDelete,
}: {
  groups: HouseGroup[];
  houses: House[];
  mayEdit: boolean;
  /** New Group, for those who may add one. */
  newGroupButton: ReactNode;
  onEdit(group: HouseGroup): void;
  onDelete(group: HouseGroup): void;
}) {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const nameOf = (id: string) => houses.find((house) => house.id === id)?.name;
  return (
    <Card className={grid.card} role="region" aria-label="Auction house groups">
      <SectionHeader
        icon={<GroupRegular fontSize={20} aria-hidden="true" />}
        title="Auction house groups"
        description="Houses reported and managed together. Deleting a group leaves its houses in place."
        action={groups.length ? newGroupButton : null}
      />
      {groups.length === 0 ? (
        <div className={styles.empty}>
          <GroupRegular fontSize={28} aria-hidden="true" />
          <Text weight="semibold">No groups yet</Text>
          <Body1>Group houses to see and manage them together.</Body1>
          {newGroupButton}
        </div>
      ) : (
        <ul className={styles.list} aria-label="Groups">
          {groups.map((group) => {
            // Houses the person may not see are counted, not named.
            const named = group.houseIds.flatMap((id) => {
              const name = nameOf(id);
              return name ? [{ id, name }] : [];
            });
            return (
              <li key={group.id} className={styles.group} aria-label={group.name}>
                <div className={styles.body}>
                  <div className={styles.titleRow}>
                    <Text className={styles.name}>{group.name}</Text>
                    <Caption1 className={styles.muted}>
                      {countOf(group.houseIds.length, 'house')}
                    </Caption1>
                  </div>
                  {group.description ? (
                    <Body1 className={styles.description}>{group.description}</Body1>
                  ) : null}
                  {named.length ? (
                    <div className={styles.tags}>
                      {named.map((house) => (
                        <Tag key={house.id} size="small" appearance="outline">
                          {house.name}
                        </Tag>
                      ))}
                    </div>
                  ) : null}
                </div>
                {mayEdit ? (
                  <div className={styles.actions}>
                    <Button
                      appearance="subtle"
                      icon={<EditRegular />}
                      aria-label={`Edit group ${group.name}`}
                      onClick={() => onEdit(group)}
                    />
                    <Button
                      appearance="subtle"
                      icon={<DeleteRegular />}
                      aria-label={`Delete group ${group.name}`}
                      onClick={() => onDelete(group)}
                    />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
