import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  mergeClasses,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import {
  BuildingMultipleRegular,
  BuildingRegular,
  CheckmarkCircleFilled,
} from '@fluentui/react-icons';
import type { AccountAccess } from '@contracts/identity/accounts/accounts.schema';
import { roleLabels } from '@contracts/identity/permissions';
import type { UserView } from '@contracts/identity/shared/users.schema';
import { useState } from 'react';
import { useAction } from '../../../lib/use-action';
import { chooseAccount, logout } from '../api/session';

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    margin: 0,
    padding: 0,
  },
  option: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    width: '100%',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    textAlign: 'left',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  selected: {
    border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  details: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  title: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    flexWrap: 'wrap',
  },
  icon: { fontSize: '24px', color: tokens.colorBrandForeground1 },
  check: { color: tokens.colorBrandForeground1, fontSize: '20px' },
});

const typeLabel = (type: AccountAccess['accountType']) =>
  type === 'group' || type === 'organization' ? 'Organization' : 'Individual Auction House';

/** Which account to open, when the person belongs to several. Cannot be dismissed by clicking out. */
export default function AccountPickerDialog({
  user,
  accounts,
}: {
  user: UserView;
  accounts: AccountAccess[];
}) {
  const styles = useStyles();
  const initial =
    accounts.length === 1
      ? accounts[0]?.accountId
      : accounts.find((account) => account.isDefault)?.accountId;
  const [chosen, setChosen] = useState<string | undefined>(initial);
  const proceed = useAction(chooseAccount);

  return (
    <Dialog open modalType="alert">
      <DialogSurface aria-describedby="picker-signed-in-as">
        <DialogBody>
          <DialogTitle>Select Account</DialogTitle>
          <DialogContent>
            <Body1 id="picker-signed-in-as" as="p">
              Signed in as {user.email}. Choose which account to access.
            </Body1>
            <div role="radiogroup" aria-label="Select Your Account" className={styles.list}>
              {accounts.map((account) => {
                const isChosen = chosen === account.accountId;
                const isOwner = account.roles.includes('owner');
                return (
                  <button
                    key={account.accountId}
                    type="button"
                    role="radio"
                    aria-checked={isChosen}
                    className={mergeClasses(styles.option, isChosen && styles.selected)}
                    onClick={() => setChosen(account.accountId)}
                  >
                    {account.accountType === 'individual' ? (
                      <BuildingRegular className={styles.icon} />
                    ) : (
                      <BuildingMultipleRegular className={styles.icon} />
                    )}
                    <span className={styles.details}>
                      <span className={styles.title}>
                        <Subtitle2>{account.accountName}</Subtitle2>
                        {isOwner ? (
                          <Badge appearance="tint" color="brand">
                            Owner
                          </Badge>
                        ) : null}
                      </span>
                      <Caption1>
                        {typeLabel(account.accountType)} ·{' '}
                        {account.roles.length
                          ? account.roles.map((role) => roleLabels[role]).join(', ')
                          : 'Member'}
                        {account.assignedAt
                          ? ` · since ${new Date(account.assignedAt).toLocaleDateString()}`
                          : ''}
                      </Caption1>
                    </span>
                    {isChosen ? <CheckmarkCircleFilled className={styles.check} /> : <span />}
                  </button>
                );
              })}
            </div>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => void logout()}>
              Sign out
            </Button>
            <Button
              appearance="primary"
              disabled={!chosen || proceed.busy}
              onClick={() => {
                if (chosen) void proceed.run(chosen);
              }}
            >
              {proceed.busy ? 'Loading...' : 'Continue'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
