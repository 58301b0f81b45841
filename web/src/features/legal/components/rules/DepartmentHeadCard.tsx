import {
  Avatar,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Radio,
  RadioGroup,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular, PersonStarRegular, SaveRegular } from '@fluentui/react-icons';
import { roleLabels } from '@contracts/identity/permissions';
import { departmentHeadRoles } from '@contracts/legal/rules/rules.schema';
import { useId, useState } from 'react';
import { ApiError, messageOf } from '../../../../lib/api-client';
import { useCan } from '../../../../lib/auth-store';
import { needsPermission, permissionLabel } from '../../../../lib/permission-text';
import { useNotify } from '../../../../lib/toast';
import { useAction } from '../../../../lib/use-action';
import { useAssignees } from '../../api/legal';
import {
  useLegalSettings,
  useLegalSettingsActions,
  type DepartmentHead,
  type LegalSettings,
} from '../../api/rules';
import { formatDate } from '../case-style';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  muted: { color: tokens.colorNeutralForeground2 },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  heads: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexWrap: 'wrap',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    paddingBlock: tokens.spacingVerticalXXS,
    paddingInline: `${tokens.spacingHorizontalXXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusCircular,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  headName: { overflowWrap: 'anywhere' },
  editor: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    paddingTop: tokens.spacingVerticalL,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  choice: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  // Under the radio it belongs to, level with the radios' labels.
  detail: {
    marginInlineStart: '32px',
    width: '320px',
    maxWidth: `calc(100% - 32px)`,
    '@media (max-width: 640px)': { width: 'auto' },
  },
  footer: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
});

type Role = (typeof departmentHeadRoles)[number];

/** The choice as the form holds it: a role or member may still be to pick. */
interface Draft {
  type: DepartmentHead['type'];
  role: Role | '';
  userId: string;
}

const draftOf = (head: DepartmentHead): Draft => ({
  type: head.type,
  role: head.type === 'role' ? head.role : '',
  userId: head.type === 'member' ? head.userId : '',
});

/** The setting the draft names, once it names one fully. */
function headOf(draft: Draft): DepartmentHead | null {
  if (draft.type === 'escalators') return { type: 'escalators' };
  if (draft.type === 'role') return draft.role ? { type: 'role', role: draft.role } : null;
  return draft.userId ? { type: 'member', userId: draft.userId } : null;
}

const sameHead = (a: DepartmentHead, b: DepartmentHead) =>
  JSON.stringify(draftOf(a)) === JSON.stringify(draftOf(b));

const ESCALATORS = 'Everyone who may escalate cases';
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });

/** The member a setting names, by the name the server gave them while they were active. */
function namedMember(settings: LegalSettings): { id: string; name: string } | null {
  const head = settings.departmentHead;
  if (head.type !== 'member') return null;
  const found = settings.fallback ? undefined : settings.heads.find((p) => p.id === head.userId);
  return { id: head.userId, name: found?.name ?? 'Former member' };
}

/** The setting in words, as those who may not change it read it. */
function describe(settings: LegalSettings): string {
  const head = settings.departmentHead;
  if (head.type === 'escalators') return ESCALATORS;
  if (head.type === 'role') return `Everyone with the ${roleLabels[head.role]} role`;
  return `One member: ${namedMember(settings)?.name ?? 'Former member'}`;
}

/** Why the setting fell back, and what happens until it is chosen again. */
function fallbackText(settings: LegalSettings, mayChoose: boolean): string {
  const head = settings.departmentHead;
  const why =
    head.type === 'role'
      ? `No active member has the ${roleLabels[head.role]} role`
      : 'The chosen member is no longer an active member of this account';
  const until = mayChoose ? 'until you choose again' : 'until the department head is chosen again';
  return `${why}; Critical updates go to everyone who may escalate cases ${until}.`;
}

/**
 * The legal department head: whoever hears of every update to a Critical case (the built-in
 * "Critical escalation" rule). Shows who that is today; those who may approve settlements choose
 * it here, everyone else reads it.
 */
export function DepartmentHeadCard() {
  const styles = useStyles();
  const can = useCan();
  const mayChoose = can('legal:workflow_approve');
  const settings = useLegalSettings();
  const titleId = useId();

  return (
    <Card className={styles.card} role="region" aria-labelledby={titleId}>
      <CardHeader
        image={<PersonStarRegular fontSize={20} aria-hidden="true" />}
        header={
          <Subtitle2 as="h2" id={titleId}>
            Legal department head
          </Subtitle2>
        }
        description={
          <Caption1 className={styles.muted}>
            Is told of every update to a Critical case, through the built-in Critical escalation
            rule.
          </Caption1>
        }
      />
      {settings.data ? (
        <HeadBody settings={settings.data} mayChoose={mayChoose} />
      ) : settings.error ? (
        <MessageBar intent="error">
          <MessageBarBody>
            The legal settings could not be loaded: {messageOf(settings.error)}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void settings.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : (
        <Skeleton aria-label="Loading the legal department head">
          <SkeletonItem size={32} style={{ marginBottom: 8, maxWidth: 320 }} />
          <SkeletonItem size={48} />
        </Skeleton>
      )}
    </Card>
  );
}

function HeadBody({ settings, mayChoose }: { settings: LegalSettings; mayChoose: boolean }) {
  const styles = useStyles();
  const { heads } = settings;
  const todayId = useId();
  return (
    <div className={styles.body}>
      <section className={styles.section} aria-labelledby={todayId}>
        <Text id={todayId} weight="semibold">
          Gets Critical case updates today
        </Text>
        {heads.length ? (
          <ul className={styles.heads} aria-label="Legal department head today">
            {heads.map((person) => (
              <li key={person.id} className={styles.head}>
                <Avatar name={person.name} size={24} color="colorful" aria-hidden="true" />
                <Body1 className={styles.headName}>{person.name}</Body1>
              </li>
            ))}
          </ul>
        ) : (
          <Body1 className={styles.muted}>
            Nobody: no active member may escalate cases, so Critical updates reach only the
            case&apos;s assignee.
          </Body1>
        )}
      </section>
      {settings.fallback ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>{fallbackText(settings, mayChoose)}</MessageBarBody>
        </MessageBar>
      ) : null}
      {mayChoose ? (
        <HeadEditor settings={settings} />
      ) : (
        <div className={styles.section}>
          <Body1>
            <Text weight="semibold">Chosen: </Text>
            {describe(settings)}
          </Body1>
          <Caption1 className={styles.muted}>
            {needsPermission('legal:workflow_approve')} to change it.
            {settings.updatedBy && settings.updatedAt
              ? ` Last changed by ${settings.updatedBy.name} on ${formatDate(settings.updatedAt)}.`
              : null}
          </Caption1>
        </div>
      )}
    </div>
  );
}

/** The choice of head, saved against the version of the settings it was made on. */
function HeadEditor({ settings }: { settings: LegalSettings }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalSettingsActions();
  const assignees = useAssignees();
  // From the first change until it is saved or reloaded: the settings the choice is made on, so
  // a refresh in the background neither undoes the change nor lets it overwrite unseen work.
  const [base, setBase] = useState<LegalSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [stale, setStale] = useState(false);
  const current = base ?? settings;
  const chosen = draft ?? draftOf(current.departmentHead);
  const head = headOf(chosen);
  const changed = head !== null && !sameHead(head, current.departmentHead);

  const save = useAction(
    async (chosenHead: DepartmentHead) => {
      const saved = await actions.save(current, chosenHead);
      setBase(null);
      setDraft(null);
      notify.success(
        'Department head saved',
        saved.heads.length
          ? `Critical case updates now go to ${listFormat.format(saved.heads.map((p) => p.name))}.`
          : undefined,
      );
    },
    {
      onError: (_, caught) => {
        if (caught instanceof ApiError && caught.status === 412) setStale(true);
        // The member left meanwhile: show the list as it is now.
        if (caught instanceof ApiError && caught.status === 400) void assignees.mutate();
      },
    },
  );
  const change = (next: Partial<Draft>) => {
    setBase(current);
    setDraft({ ...chosen, ...next });
    setStale(false);
    save.reset();
  };
  const reload = useAction(async () => {
    await actions.refresh();
    setBase(null);
    setDraft(null);
    setStale(false);
    save.reset();
  });

  const members = (assignees.data?.assignees ?? []).map(({ id, name }) => ({ id, name }));
  for (const kept of [namedMember(current), namedMember(settings)]) {
    if (kept && !members.some((member) => member.id === kept.id)) members.push(kept);
  }
  const memberName = members.find((member) => member.id === chosen.userId)?.name ?? '';
  const memberError = save.fieldErrors['departmentHead.userId']
    ? `${memberName || 'This member'} is not an active member of this account; choose another`
    : undefined;
  const otherError =
    !stale && save.error && !memberError ? save.error : reload.error ? reload.error : null;
  const busy = save.busy || reload.busy;

  return (
    <div className={styles.editor}>
      <Field label="Department head">
        <RadioGroup
          value={chosen.type}
          disabled={busy}
          onChange={(_, data) => change({ type: data.value as Draft['type'] })}
        >
          <Radio
            value="escalators"
            label={
              <span className={styles.choice}>
                <Text>{ESCALATORS}</Text>
                <Caption1 className={styles.muted}>
                  Every active member with the {permissionLabel('legal:escalate')} permission
                </Caption1>
              </span>
            }
          />
          <Radio
            value="role"
            label={
              <span className={styles.choice}>
                <Text>Everyone with a role</Text>
                <Caption1 className={styles.muted}>
                  Every active member with the role you choose
                </Caption1>
              </span>
            }
          />
          <Radio
            value="member"
            label={
              <span className={styles.choice}>
                <Text>One member</Text>
                <Caption1 className={styles.muted}>One active member you choose</Caption1>
              </span>
            }
          />
        </RadioGroup>
      </Field>
      {chosen.type === 'role' ? (
        <Field label="Role" className={styles.detail}>
          <Dropdown
            placeholder="Choose a role"
            disabled={busy}
            value={chosen.role ? roleLabels[chosen.role] : ''}
            selectedOptions={chosen.role ? [chosen.role] : []}
            onOptionSelect={(_, data) => change({ role: data.optionValue as Role })}
          >
            {departmentHeadRoles.map((role) => (
              <Option key={role} value={role}>
                {roleLabels[role]}
              </Option>
            ))}
          </Dropdown>
        </Field>
      ) : null}
      {chosen.type === 'member' ? (
        <Field
          label="Member"
          className={styles.detail}
          validationMessage={memberError}
          validationState={memberError ? 'error' : 'none'}
        >
          <Dropdown
            placeholder={assignees.data ? 'Choose a member' : 'Loading members...'}
            disabled={busy}
            value={memberName}
            selectedOptions={chosen.userId ? [chosen.userId] : []}
            onOptionSelect={(_, data) => change({ userId: data.optionValue ?? '' })}
          >
            {members.map((member) => (
              <Option key={member.id} value={member.id}>
                {member.name}
              </Option>
            ))}
          </Dropdown>
        </Field>
      ) : null}
      {stale ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>The legal settings changed</MessageBarTitle>
            Someone else changed the legal settings; reload them to see their changes, then choose
            again.
          </MessageBarBody>
          <MessageBarActions>
            <Button icon={<ArrowSyncRegular />} disabled={busy} onClick={() => void reload.run()}>
              Reload
            </Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {otherError ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>The department head was not saved</MessageBarTitle>
            {otherError}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <div className={styles.footer}>
        <Button
          appearance="primary"
          icon={<SaveRegular />}
          disabled={!changed || busy}
          onClick={() => head && void save.run(head)}
        >
          {save.busy ? 'Saving...' : 'Save'}
        </Button>
        {current.updatedBy && current.updatedAt ? (
          <Caption1 className={styles.muted}>
            Last changed by {current.updatedBy.name} on {formatDate(current.updatedAt)}
          </Caption1>
        ) : null}
      </div>
    </div>
  );
}
