import {
  Badge,
  Button,
  Caption1,
  makeStyles,
  Menu,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowSwapRegular } from '@fluentui/react-icons';
import { roleLabels } from '@contracts/identity/permissions';
import { useSignedIn } from '../../lib/auth-store';
import { useNotify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { switchAccount } from '../../features/auth/api/session';

const useStyles = makeStyles({
  banner: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXL}`,
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 640px)': {
      padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    },
  },
  identity: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  kind: {
    color: tokens.colorNeutralForeground3,
    textTransform: 'uppercase',
    letterSpacing: '0.04em',
  },
  note: { color: tokens.colorNeutralForeground3 },
  chips: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
});

/** Which account and houses the person is working in, and their role in each. */
export function AccountBanner() {
  const styles = useStyles();
  const notify = useNotify();
  const { account, accounts } = useSignedIn();
  const switching = useAction(switchAccount, {
    onError: (message) => notify.error('Could not switch account', message),
  });
  const isGroup = account.type !== 'individual';
  return (
    <div className={styles.banner} role="region" aria-label="Current account">
      <div className={styles.identity}>
        <Caption1 className={styles.kind}>
          {isGroup ? 'Auction House Group' : 'Auction House'}
        </Caption1>
        <Subtitle2>{account.name}</Subtitle2>
        <Badge appearance="tint" color={account.role === 'owner' ? 'brand' : 'informative'}>
          {account.role === 'owner' ? 'Account Owner' : 'Member'}
        </Badge>
        {account.demoExpiresAt ? (
          <Caption1 className={styles.note}>
            Your own demo, removed on {new Date(account.demoExpiresAt).toLocaleDateString()}
          </Caption1>
        ) : null}
      </div>
      {account.houseAccess.length > 1 ? (
        <div className={styles.chips} aria-label="Your role in each house">
          {account.houseAccess.map((house) => (
            <Badge key={house.houseId} appearance="tint" color="informative">
              {house.houseName} · {roleLabels[house.role]}
            </Badge>
          ))}
        </div>
      ) : null}
      <span className={styles.spacer} />
      {accounts.length > 1 ? (
        <Menu
          checkedValues={{ account: [account.id] }}
          onCheckedValueChange={(_, data) => {
            const next = data.checkedItems[0];
            if (next && next !== account.id) void switching.run(next);
          }}
        >
          <MenuTrigger disableButtonEnhancement>
            <Button size="small" appearance="subtle" icon={<ArrowSwapRegular />}>
              Switch account
            </Button>
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {accounts.map((entry) => (
                <MenuItemRadio key={entry.accountId} name="account" value={entry.accountId}>
                  {entry.accountName}
                </MenuItemRadio>
              ))}
            </MenuList>
          </MenuPopover>
        </Menu>
      ) : null}
    </div>
  );
}
