import {
  Avatar,
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Option,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { MoreHorizontalRegular, PersonAddRegular } from '@fluentui/react-icons';
import type { TeamMember } from '@contracts/identity/team/team.schema';
import { permissionCatalogue, roleLabels, type Permission } from '@contracts/identity/permissions';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { messageOf } from '../../../lib/api-client';
import { useCan, useSignedIn } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePermissionCatalogue, useTeam, useTeamActions } from '../api/security';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  table: { '@media (max-width: 860px)': { display: 'none' } },
  cards: {
    display: 'none',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    '@media (max-width: 860px)': { display: 'flex' },
  },
  memberCard: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  person: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  personText: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  badges: {
    display: 'flex',
    gap: tokens.spacingHorizontalXS,
    flexWrap: 'wrap',
    marginTop: tokens.spacingVerticalXS,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXL,
    textAlign: 'center',
  },
  roles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  roleCard: { padding: tokens.spacingHorizontalL },
  permissions: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  sectionTitle: { margin: 0 },
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

type Role = 'admin' | 'staff' | 'viewer';
const statusColour = { active: 'success', pending: 'warning', suspended: 'danger' } as const;
const statusLabel = { active: 'Active', pending: 'Invited', suspended: 'Deactivated' } as const;

function InviteDialog({
  open,
  isOwner,
  onClose,
}: {
  open: boolean;
  isOwner: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useTeamActions();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role | ''>('staff');
  const [message, setMessage] = useState('');
  const roles: Role[] = isOwner ? ['admin', 'staff', 'viewer'] : ['staff', 'viewer'];
  const invite = useAction(
    async (chosen: Role) => {
      await actions.invite({
        email: email.trim(),
        role: chosen,
        ...(message.trim() ? { personalMessage: message.trim() } : {}),
      });
      notify.success('Invitation sent', `${email.trim()} will get an email with a link to join.`);
      setEmail('');
      setRole('staff');
      setMessage('');
      onClose();
    },
    { fallback: 'Failed to send invitation' },
  );

  const send = () => {
    if (!email.trim() || !role) {
      invite.fail('Please fill in all required fields');
      return;
    }
    void invite.run(role);
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Invite a team member</DialogTitle>
          <DialogContent className={styles.form}>
            <Field label="Email" required>
              <Input type="email" value={email} onChange={(_, data) => setEmail(data.value)} />
            </Field>
            <Field label="Role" required hint={role ? undefined : 'Choose a role'}>
              <Dropdown
                value={role ? roleLabels[role] : ''}
                selectedOptions={role ? [role] : []}
                onOptionSelect={(_, data) => setRole((data.optionValue as Role) ?? '')}
              >
                {roles.map((candidate) => (
                  <Option key={candidate} value={candidate}>
                    {roleLabels[candidate]}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label="Personal message" hint="Optional. Included in the invitation email.">
              <Textarea
                value={message}
                maxLength={1000}
                onChange={(_, data) => setMessage(data.value)}
              />
            </Field>
            {invite.error ? (
              <MessageBar intent="error" role="alert">
                {/* A rejected address names its field; the form has only one email. */}
                <MessageBarBody>{invite.error.replace(/^email: /, '')}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button appearance="primary" disabled={invite.busy} onClick={send}>
              {invite.busy ? 'Sending...' : 'Send invitation'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function RoleCards() {
  const styles = useStyles();
  const { data } = usePermissionCatalogue();
  if (!data) return <Body1>Loading permissions...</Body1>;
  return (
    <div className={styles.roles}>
      {data.roles
        .filter((role) => role.role !== 'owner')
        .map((role) => (
          <Card key={role.role} className={styles.roleCard}>
            <CardHeader
              header={<Subtitle2 as="h3">{role.label}</Subtitle2>}
              action={
                <Badge appearance="tint">{countOf(role.permissions.length, 'permission')}</Badge>
              }
              description={<Caption1>{role.description}</Caption1>}
            />
            <ul className={styles.permissions}>
              {role.permissions.slice(0, 8).map((key) => (
                <li key={key}>
                  <Caption1>{permissionCatalogue[key as Permission] ?? key}</Caption1>
                </li>
              ))}
            </ul>
            {role.permissions.length > 8 ? (
              <Caption1 className={styles.muted}>
                +{countOf(role.permissions.length - 8, 'additional permission')}...
              </Caption1>
            ) : null}
          </Card>
        ))}
    </div>
  );
}

/** Team members and invitations: roles, MFA, status, and the actions owners and admins have. */
export function UsersTab() {
  const styles = useStyles();
  const notify = useNotify();
  const { user, account } = useSignedIn();
  const team = useTeam();
  const actions = useTeamActions();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [deactivating, setDeactivating] = useState<TeamMember | null>(null);
  const [resetting, setResetting] = useState<TeamMember | null>(null);
  const isOwner = account.role === 'owner';
  const canManage = useCan()('users:invite');
  const members = team.data?.users ?? [];
  const others = members.filter((member) => member.id !== user.id);

  const resend = useAction(
    async (member: TeamMember) => {
      await actions.resendInvitation(member.id);
      notify.success('Invitation sent again');
    },
    { onError: (message) => notify.error('Failed to send invitation', message) },
  );
  const changeRole = useAction(
    async (member: TeamMember, role: Role) => {
      await actions.changeRole(member, role);
      notify.success(`${member.name} is now ${roleLabels[role]}`);
    },
    { onError: (message) => notify.error('Could not change the role', message) },
  );
  const reactivate = useAction(
    async (member: TeamMember) => {
      await actions.reactivate(member.id);
      notify.success(`${member.name} is active again`);
    },
    { onError: (message) => notify.error('Could not reactivate', message) },
  );

  const actionsFor = (member: TeamMember) => {
    if (!canManage || member.id === user.id || member.accountRole === 'owner') return null;
    if (member.accountRole === 'admin' && !isOwner) return null;
    const roles: Role[] = (isOwner ? ['admin', 'staff', 'viewer'] : ['staff', 'viewer']).filter(
      (role) => role !== member.accountRole,
    ) as Role[];
    return (
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button
            appearance="subtle"
            icon={<MoreHorizontalRegular />}
            aria-label={`Actions for ${member.name}`}
          />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {member.kind === 'invitation' ? (
              <MenuItem onClick={() => void resend.run(member)}>Send invitation again</MenuItem>
            ) : (
              <>
                {member.status === 'active'
                  ? roles.map((role) => (
                      <MenuItem key={role} onClick={() => void changeRole.run(member, role)}>
                        Make {roleLabels[role]}
                      </MenuItem>
                    ))
                  : null}
                {member.status === 'active' ? (
                  <MenuItem onClick={() => setResetting(member)}>Send password reset</MenuItem>
                ) : null}
                {member.status === 'active' ? (
                  <MenuItem onClick={() => setDeactivating(member)}>Deactivate</MenuItem>
                ) : (
                  <MenuItem onClick={() => void reactivate.run(member)}>Reactivate</MenuItem>
                )}
              </>
            )}
          </MenuList>
        </MenuPopover>
      </Menu>
    );
  };

  const badges = (member: TeamMember) => (
    <>
      <Badge appearance="tint" color={member.accountRole === 'owner' ? 'brand' : 'informative'}>
        {roleLabels[member.accountRole]}
      </Badge>
      <Badge appearance="tint" color={statusColour[member.status]}>
        {statusLabel[member.status]}
      </Badge>
      {member.kind === 'member' ? (
        <Badge appearance="outline" color={member.mfa.enabled ? 'success' : 'subtle'}>
          {member.mfa.enabled ? 'MFA on' : 'MFA off'}
        </Badge>
      ) : null}
    </>
  );

  const lastActive = (member: TeamMember) =>
    member.kind === 'invitation'
      ? `Invited ${member.invitedAt ? new Date(member.invitedAt).toLocaleDateString() : ''}`
      : member.lastLoginAt
        ? new Date(member.lastLoginAt).toLocaleString()
        : 'Never';

  return (
    <div className={styles.stack}>
      <Card className={styles.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Team members</Subtitle2>}
          description={
            <Caption1>
              {countOf(members.filter((member) => member.kind === 'member').length, 'member')} ·{' '}
              {countOf(
                members.filter((member) => member.kind === 'invitation').length,
                'pending invitation',
              )}
            </Caption1>
          }
          action={
            canManage && others.length ? (
              <Button
                appearance="primary"
                icon={<PersonAddRegular />}
                onClick={() => setInviteOpen(true)}
              >
                Invite User
              </Button>
            ) : undefined
          }
        />
        {team.isLoading ? (
          <Spinner label="Loading team..." />
        ) : team.error ? (
          <MessageBar intent="error">
            <MessageBarBody>{messageOf(team.error)}</MessageBarBody>
          </MessageBar>
        ) : others.length === 0 ? (
          <div className={styles.empty}>
            <Subtitle2 as="p">No team members yet</Subtitle2>
            <Body1>Invite the people you work with; each gets an email with a link to join.</Body1>
            {canManage ? (
              <Button
                appearance="primary"
                icon={<PersonAddRegular />}
                onClick={() => setInviteOpen(true)}
              >
                Invite Your First User
              </Button>
            ) : null}
          </div>
        ) : (
          <>
            <Table className={styles.table} aria-label="Team members">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>User</TableHeaderCell>
                  <TableHeaderCell>Role</TableHeaderCell>
                  <TableHeaderCell>MFA Status</TableHeaderCell>
                  <TableHeaderCell>Account Status</TableHeaderCell>
                  <TableHeaderCell>Last Active</TableHeaderCell>
                  <TableHeaderCell>
                    <span className={styles.visuallyHidden}>Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {members.map((member) => (
                  <TableRow key={member.id}>
                    <TableCell>
                      <div className={styles.person}>
                        <Avatar name={member.name} size={28} />
                        <div className={styles.personText}>
                          <Body1>{member.name}</Body1>
                          <Caption1>{member.email}</Caption1>
                        </div>
                      </div>
                    </TableCell>
                    <TableCell>
                      {roleLabels[member.accountRole]}
                      {member.auctionHouseAccess.length ? (
                        <Caption1 className={styles.muted}>
                          {' '}
                          · {member.auctionHouseAccess.map((house) => house.houseName).join(', ')}
                        </Caption1>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {member.kind === 'invitation'
                        ? '—'
                        : member.mfa.enabled
                          ? 'Enabled'
                          : 'Not set up'}
                    </TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={statusColour[member.status]}>
                        {statusLabel[member.status]}
                      </Badge>
                    </TableCell>
                    <TableCell>{lastActive(member)}</TableCell>
                    <TableCell>{actionsFor(member)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <ul className={styles.cards} aria-label="Team members">
              {members.map((member) => (
                <li key={member.id} className={styles.memberCard}>
                  <Avatar name={member.name} size={32} />
                  <div className={styles.personText}>
                    <Body1>{member.name}</Body1>
                    <Caption1>{member.email}</Caption1>
                    <Caption1 className={styles.muted}>Last active: {lastActive(member)}</Caption1>
                    <div className={styles.badges}>{badges(member)}</div>
                  </div>
                  {actionsFor(member)}
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
      <section aria-labelledby="role-permissions-title" className={styles.stack}>
        <Subtitle2 as="h2" id="role-permissions-title" className={styles.sectionTitle}>
          Role Permissions
        </Subtitle2>
        <RoleCards />
      </section>
      <InviteDialog open={inviteOpen} isOwner={isOwner} onClose={() => setInviteOpen(false)} />
      <ConfirmDialog
        open={deactivating !== null}
        title="Deactivate user"
        confirmLabel="Deactivate"
        busyLabel="Deactivating..."
        danger
        onClose={() => setDeactivating(null)}
        failureTitle="Could not deactivate"
        onConfirm={async () => {
          if (deactivating) await actions.deactivate(deactivating.id);
          notify.success(`${deactivating?.name ?? 'User'} was deactivated`);
        }}
      >
        Are you sure you want to deactivate this user?
      </ConfirmDialog>
      <ConfirmDialog
        open={resetting !== null}
        title="Send a password reset?"
        confirmLabel="Send reset link"
        busyLabel="Sending..."
        onClose={() => setResetting(null)}
        failureTitle="Could not send the reset link"
        onConfirm={async () => {
          if (resetting) await actions.resetPassword(resetting.id);
          notify.success(`A reset link was sent to ${resetting?.email ?? 'the user'}`);
        }}
      >
        {`${resetting?.name ?? 'The user'} will get an email with a link to choose a new password. Their current password keeps working until they do.`}
      </ConfirmDialog>
    </div>
  );
}
