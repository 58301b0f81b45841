import {
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
  makeStyles,
  MessageBar,
  MessageBarBody,
  Switch,
  tokens,
} from '@fluentui/react-components';
import {
  webhookEvents,
  webhookEventTypes,
  type Webhook,
  type WebhookEventType,
  type WebhookWithSecret,
} from '@contracts/webhooks/webhooks.schema';
import { useState } from 'react';
import { SecretReveal } from '../../../components/SecretReveal';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useWebhookActions } from '../api/webhooks';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  events: { display: 'flex', flexDirection: 'column', border: 'none', margin: 0, padding: 0 },
  legend: { paddingBottom: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/**
 * Adds an endpoint (then shows its signing secret, once) or edits one against the version on
 * screen: its URL, what it is for, the events it receives and whether it is on.
 */
export function WebhookDialog({ webhook, onClose }: { webhook: Webhook | null; onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useWebhookActions();
  const [url, setUrl] = useState(webhook?.url ?? 'https://');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<Set<WebhookEventType>>(
    new Set((webhook?.events ?? ['auction.published']) as WebhookEventType[]),
  );
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const save = useAction(
    async () => {
      const body = {
        url: url.trim(),
        description: description.trim(),
        events: [...events],
        enabled,
      };
      if (webhook) {
        await actions.update(webhook.id, webhook.etag, body);
        notify.success('Webhook saved');
        onClose();
      } else {
        setCreated(await actions.create(body));
        notify.success('Webhook added');
      }
    },
    { fallback: 'The webhook was not saved' },
  );
  const toggle = (type: WebhookEventType, on: boolean) => {
    const next = new Set(events);
    if (on) next.add(type);
    else next.delete(type);
    setEvents(next);
  };
  const eventsError = Object.entries(save.fieldErrors).find(([field]) =>
    field.startsWith('events'),
  )?.[1];
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>
            {created ? 'Signing secret' : webhook ? 'Edit webhook' : 'Add webhook'}
          </DialogTitle>
          <DialogContent>
            {created ? (
              <SecretReveal label="Signing secret" value={created.secret} />
            ) : (
              <form
                id="webhook-form"
                className={styles.form}
                onSubmit={(event) => {
                  event.preventDefault();
                  void save.run();
                }}
              >
                {save.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{save.error}</MessageBarBody>
                  </MessageBar>
                ) : null}
                <Field
                  label="Endpoint URL"
                  required
                  hint="An https address on the internet that accepts POST requests"
                  validationMessage={save.fieldErrors.url}
                >
                  <Input
                    type="url"
                    value={url}
                    maxLength={2048}
                    onChange={(_, data) => setUrl(data.value)}
                  />
                </Field>
                <Field label="Description" validationMessage={save.fieldErrors.description}>
                  <Input
                    value={description}
                    maxLength={200}
                    onChange={(_, data) => setDescription(data.value)}
                  />
                </Field>
                <fieldset className={styles.events}>
                  <legend className={styles.legend}>Events</legend>
                  {webhookEventTypes.map((type) => (
                    <Checkbox
                      key={type}
                      label={`${webhookEvents[type]} (${type})`}
                      checked={events.has(type)}
                      onChange={(_, data) => toggle(type, data.checked === true)}
                    />
                  ))}
                  {eventsError ? (
                    <Caption1 role="alert" className={styles.error}>
                      {eventsError}
                    </Caption1>
                  ) : null}
                </fieldset>
                <Switch
                  label={enabled ? 'On: deliveries are sent' : 'Off: nothing is sent'}
                  checked={enabled}
                  onChange={(_, data) => setEnabled(data.checked)}
                />
              </form>
            )}
          </DialogContent>
          <DialogActions>
            {created ? (
              <Button appearance="primary" onClick={onClose}>
                Done
              </Button>
            ) : (
              <>
                <Button onClick={onClose} disabled={save.busy}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  type="submit"
                  form="webhook-form"
                  disabled={save.busy || events.size === 0 || !url.trim()}
                >
                  {save.busy ? 'Saving...' : webhook ? 'Save' : 'Add webhook'}
                </Button>
              </>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
