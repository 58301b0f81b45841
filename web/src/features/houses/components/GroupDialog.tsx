import {
  Body1,
  Button,
  Caption1,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Label,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Textarea,
  tokens,
  useId,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { fetchGroup, useGroupActions, type House, type HouseGroup } from '../api/houses';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  houses: {
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '240px',
    overflowY: 'auto',
    padding: tokens.spacingVerticalXS,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  choice: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  hint: { color: tokens.colorNeutralForeground2 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

interface GroupForm {
  name: string;
  description: string;
  houseIds: string[];
}

const formOf = (group?: HouseGroup): GroupForm => ({
  name: group?.name ?? '',
  description: group?.description ?? '',
  houseIds: group?.houseIds ?? [],
});

/**
 * Creates a group of houses, or edits one. The spec's rule holds for both: a name and at least
 * one house; with no houses yet it says to create them first.
 */
export function GroupDialog({
  group,
  houses,
  onClose,
}: {
  group?: HouseGroup;
  houses: House[];
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useGroupActions();
  const [base, setBase] = useState(group);
  const [form, setForm] = useState(() => formOf(group));
  const [stale, setStale] = useState(false);
  const housesLabel = useId('group-houses');
  // A house deleted since the group was made is not offered, and not sent back.
  const chosen = form.houseIds.filter((id) => houses.some((house) => house.id === id));
  const ready = form.name.trim() !== '' && chosen.length > 0;

  const save = useAction(
    async () => {
      const body = { name: form.name, description: form.description, houseIds: chosen };
      if (base) {
        const saved = await actions.update(base, body);
        notify.success('Group updated successfully', `"${saved.name}" is saved.`);
      } else {
        const created = await actions.create(body);
        notify.success('Group created successfully', `"${created.name}" is ready.`);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError && caught.status === 412) setStale(true);
        notify.error(base ? 'Failed to update group' : 'Failed to create group', message);
      },
    },
  );
  const reload = useAction(async () => {
    if (!base) return;
    const fresh = await fetchGroup(base.id);
    setBase(fresh);
    setForm(formOf(fresh));
    setStale(false);
    save.reset();
    void actions.refresh();
  });
  const formRef = useFocusFirstError(save.fieldErrors);

  const busy = save.busy || reload.busy;
  const close = () => {
    if (!busy) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && ready) void save.run();
  };
  const toggle = (id: string, on: boolean) =>
    setForm((current) => ({
      ...current,
      houseIds: on
        ? [...current.houseIds, id]
        : current.houseIds.filter((candidate) => candidate !== id),
    }));

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form
          ref={formRef}
          onSubmit={submit}
          noValidate
          aria-label={base ? 'Edit group' : 'New group'}
        >
          <DialogBody>
            <DialogTitle>{base ? 'Edit Group' : 'New Group'}</DialogTitle>
            <DialogContent className={styles.content}>
              {stale ? (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    <MessageBarTitle>This group changed</MessageBarTitle>
                    Someone else saved it since you opened it. Reload to see their changes.
                  </MessageBarBody>
                  <MessageBarActions>
                    <Button
                      icon={<ArrowSyncRegular />}
                      disabled={busy}
                      onClick={() => void reload.run()}
                    >
                      Reload
                    </Button>
                  </MessageBarActions>
                </MessageBar>
              ) : null}
              {reload.error ? (
                <MessageBar intent="error">
                  <MessageBarBody>{reload.error}</MessageBarBody>
                </MessageBar>
              ) : null}
              <Field
                label="Group name"
                required
                validationMessage={save.fieldErrors.name}
                validationState={save.fieldErrors.name ? 'error' : 'none'}
              >
                <Input
                  value={form.name}
                  maxLength={120}
                  onChange={(_, data) => setForm((current) => ({ ...current, name: data.value }))}
                />
              </Field>
              <Field
                label="Description"
                validationMessage={save.fieldErrors.description}
                validationState={save.fieldErrors.description ? 'error' : 'none'}
              >
                <Textarea
                  value={form.description}
                  maxLength={500}
                  rows={2}
                  resize="vertical"
                  onChange={(_, data) =>
                    setForm((current) => ({ ...current, description: data.value }))
                  }
                />
              </Field>
              {/* Not a Field: it gives its one id to every checkbox inside, so each label would
                  tick the first house. */}
              <div className={styles.choice}>
                <Label id={housesLabel} required>
                  Auction houses
                </Label>
                {houses.length ? (
                  <div className={styles.houses} role="group" aria-labelledby={housesLabel}>
                    {houses.map((house) => (
                      <Checkbox
                        key={house.id}
                        label={house.name}
                        checked={chosen.includes(house.id)}
                        onChange={(_, data) => toggle(house.id, data.checked === true)}
                      />
                    ))}
                  </div>
                ) : (
                  <Body1 className={styles.hint}>
                    Create auction houses first before creating groups
                  </Body1>
                )}
                {save.fieldErrors.houseIds ? (
                  <Caption1 className={styles.error} role="alert">
                    {save.fieldErrors.houseIds}
                  </Caption1>
                ) : null}
              </div>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy || !ready}>
                {save.busy ? 'Saving...' : base ? 'Save Changes' : 'Create Group'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
