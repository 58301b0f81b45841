import {
  Body1,
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Skeleton,
  SkeletonItem,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, BuildingMultipleRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import {
  useGroupActions,
  useGroups,
  useHouseActions,
  useHouses,
  type House,
  type HouseGroup,
} from '../api/houses';
import { GroupDialog } from './GroupDialog';
import { GroupsCard } from './GroupsCard';
import { HouseCard } from './HouseCard';
import { HouseDialog } from './HouseDialog';
import { SectionHeader } from './SectionHeader';

const useStyles = makeStyles({
  houses: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    // One column on a phone, as many as fit beside each other on a wider screen.
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
    gap: tokens.spacingHorizontalL,
    '& > li': { display: 'flex', minWidth: 0 },
    '& > li > *': { flexGrow: 1 },
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
  },
  refusal: { marginTop: tokens.spacingVerticalM },
  skeleton: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
    gap: tokens.spacingHorizontalL,
  },
});

/** What a dialog is open on: a new house or group, or one of the account's. */
type Editing = { kind: 'house'; house?: House } | { kind: 'group'; group?: HouseGroup } | null;

const SPEC_DELETE_HOUSE =
  'This action cannot be undone. This will permanently delete the auction house and all associated data.';
const SPEC_DELETE_GROUP =
  'This will delete the group but not the auction houses within it. Auction houses will remain in your account.';

function CardsLoading({ label }: { label: string }) {
  const styles = useStyles();
  return (
    <Skeleton aria-label={label} className={styles.skeleton}>
      {[0, 1].map((card) => (
        <SkeletonItem key={card} shape="rectangle" style={{ height: 200 }} />
      ))}
    </Skeleton>
  );
}

/**
 * Houses, the first tab of Account Settings: the account's auction houses as cards and its groups
 * of them. Whoever holds the settings permission creates, edits and deletes them; everyone else
 * sees them read-only.
 */
export function HousesTab() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const notify = useNotify();
  const mayEdit = useCan()('system:settings');
  const houses = useHouses();
  const groups = useGroups();
  const houseActions = useHouseActions();
  const groupActions = useGroupActions();
  const [editing, setEditing] = useState<Editing>(null);
  const [deletingHouse, setDeletingHouse] = useState<House | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [deletingGroup, setDeletingGroup] = useState<HouseGroup | null>(null);

  const houseList = houses.data?.houses ?? [];
  const createHouse = mayEdit ? (
    <Button
      appearance="primary"
      icon={<AddRegular />}
      onClick={() => setEditing({ kind: 'house' })}
    >
      Create Auction House
    </Button>
  ) : null;
  const newGroup = mayEdit ? (
    <Button icon={<AddRegular />} onClick={() => setEditing({ kind: 'group' })}>
      New Group
    </Button>
  ) : null;

  return (
    <div className={grid.stack}>
      {mayEdit ? null : (
        <MessageBar intent="info">
          <MessageBarBody>
            You can see the auction houses. {needsPermission('system:settings')} to change them.
          </MessageBarBody>
        </MessageBar>
      )}
      <Card className={grid.card} role="region" aria-label="Auction houses">
        <SectionHeader
          icon={<BuildingMultipleRegular fontSize={20} aria-hidden="true" />}
          title="Auction houses"
          description="Each house runs its own auctions, in its own time zone and currency."
          action={houseList.length ? createHouse : null}
        />
        {houses.error ? (
          <MessageBar intent="error">
            <MessageBarBody>
              The auction houses could not be loaded: {messageOf(houses.error)}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void houses.mutate()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : !houses.data ? (
          <CardsLoading label="Loading auction houses" />
        ) : houseList.length === 0 ? (
          <div className={styles.empty}>
            <BuildingMultipleRegular fontSize={32} aria-hidden="true" />
            <Text weight="semibold">No auction houses yet</Text>
            <Body1>Create your first auction house to run auctions under its name.</Body1>
            {createHouse}
          </div>
        ) : (
          <ul className={styles.houses} aria-label="Auction houses">
            {houseList.map((house) => (
              <li key={house.id}>
                <HouseCard
                  house={house}
                  mayEdit={mayEdit}
                  onEdit={() => setEditing({ kind: 'house', house })}
                  onDelete={() => {
                    setRefusal(null);
                    setDeletingHouse(house);
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
      {groups.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The groups could not be loaded: {messageOf(groups.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void groups.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : !groups.data || !houses.data ? (
        <CardsLoading label="Loading groups" />
      ) : (
        <GroupsCard
          groups={groups.data.groups}
          houses={houseList}
          mayEdit={mayEdit}
          newGroupButton={newGroup}
          onEdit={(group) => setEditing({ kind: 'group', group })}
          onDelete={setDeletingGroup}
        />
      )}

      {mayEdit && editing?.kind === 'house' ? (
        <HouseDialog
          key={editing.house?.id ?? 'new'}
          house={editing.house}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {mayEdit && editing?.kind === 'group' ? (
        <GroupDialog
          key={editing.group?.id ?? 'new'}
          group={editing.group}
          houses={houseList}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deletingHouse !== null}
        title={`Delete "${deletingHouse?.name ?? 'auction house'}"?`}
        confirmLabel="Delete Auction House"
        busyLabel="Deleting..."
        danger
        failureTitle="Failed to delete auction house"
        onClose={() => setDeletingHouse(null)}
        onConfirm={async () => {
          if (!deletingHouse) return;
          setRefusal(null);
          try {
            await houseActions.remove(deletingHouse);
          } catch (error) {
            // The service says what still belongs to the house; it stays said in the dialog.
            setRefusal(messageOf(error));
            throw error;
          }
          notify.success('Auction house deleted successfully', `"${deletingHouse.name}" is gone.`);
        }}
      >
        <Body1>{SPEC_DELETE_HOUSE}</Body1>
        {refusal ? (
          <MessageBar intent="error" layout="multiline" className={styles.refusal}>
            <MessageBarBody>
              <MessageBarTitle>This auction house cannot be deleted yet</MessageBarTitle>
              <span>{refusal}</span>
            </MessageBarBody>
          </MessageBar>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={deletingGroup !== null}
        title={`Delete "${deletingGroup?.name ?? 'group'}"?`}
        confirmLabel="Delete Group"
        busyLabel="Deleting..."
        danger
        failureTitle="Failed to delete group"
        onClose={() => setDeletingGroup(null)}
        onConfirm={async () => {
          if (!deletingGroup) return;
          await groupActions.remove(deletingGroup);
          notify.success('Group deleted successfully', `"${deletingGroup.name}" is gone.`);
        }}
      >
        {SPEC_DELETE_GROUP}
      </ConfirmDialog>
    </div>
  );
}
