import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  supportCategories,
  ticketRequestSchema,
  type TicketRequest,
} from '@contracts/support/support.schema';
import { useState, type ReactNode } from 'react';
import { SupportContacts } from '../../../components/SupportContacts';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { openTicket, useMyTickets } from '../api/support';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(260px, 1fr) minmax(320px, 2fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 860px)': { gridTemplateColumns: '1fr' },
  },
  card: { padding: tokens.spacingHorizontalL },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  tickets: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  ticket: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
});

type Category = (typeof supportCategories)[number];

export function ContactSupportTab({ systemStatus }: { systemStatus: ReactNode }) {
  const styles = useStyles();
  const notify = useNotify();
  const tickets = useMyTickets();
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<Category | ''>('');
  const [description, setDescription] = useState('');
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const send = useAction(
    async (request: TicketRequest) => {
      const ticket = await openTicket(request);
      await tickets.mutate();
      notify.success(`Request ${ticket.reference} sent`, 'We reply by email within 24 hours.');
      setSubject('');
      setCategory('');
      setDescription('');
    },
    { onError: (message) => notify.error('Could not send your request', message) },
  );
  const errors = { ...send.fieldErrors, ...invalid };

  const submit = () => {
    const parsed = ticketRequestSchema.safeParse({ subject, category, description });
    if (!parsed.success) {
      send.reset();
      setInvalid(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
        ),
      );
      return;
    }
    setInvalid({});
    void send.run(parsed.data);
  };

  return (
    <div className={styles.grid}>
      <div className={styles.stack}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Reach us</Subtitle2>} />
          <SupportContacts />
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">System status</Subtitle2>} />
          <div>{systemStatus}</div>
        </Card>
      </div>
      <div className={styles.stack}>
        <Card className={styles.card}>
          <CardHeader
            header={<Subtitle2 as="h2">Open a support ticket</Subtitle2>}
            description={
              <Caption1>Goes to our support team and to your inbox as a receipt.</Caption1>
            }
          />
          <div className={styles.form}>
            <Field label="Subject" required validationMessage={errors.subject}>
              <Input
                value={subject}
                maxLength={150}
                onChange={(_, data) => setSubject(data.value)}
              />
            </Field>
            <Field label="Category" required validationMessage={errors.category}>
              <Dropdown
                placeholder="Choose a category"
                value={category}
                selectedOptions={category ? [category] : []}
                onOptionSelect={(_, data) => setCategory((data.optionValue as Category) ?? '')}
              >
                {supportCategories.map((option) => (
                  <Option key={option} value={option}>
                    {option}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field
              label="Description"
              required
              hint="What happened, what you expected, and any bidder or case ids."
              validationMessage={errors.description}
            >
              <Textarea
                value={description}
                rows={6}
                maxLength={5000}
                onChange={(_, data) => setDescription(data.value)}
              />
            </Field>
            <div>
              <Button appearance="primary" disabled={send.busy} onClick={submit}>
                {send.busy ? 'Submitting...' : 'Submit Ticket'}
              </Button>
            </div>
          </div>
        </Card>
        {tickets.data?.tickets.length ? (
          <Card className={styles.card}>
            <CardHeader header={<Subtitle2 as="h2">Your recent requests</Subtitle2>} />
            <ul className={styles.tickets}>
              {tickets.data.tickets.map((ticket) => (
                <li key={ticket.id} className={styles.ticket}>
                  <Body1>
                    {ticket.reference} · {ticket.subject}
                  </Body1>
                  <Caption1>
                    {ticket.category} · {new Date(ticket.createdAt).toLocaleString()} ·{' '}
                    {ticket.status === 'open' ? 'Open' : 'Closed'}
                  </Caption1>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
        {tickets.error ? (
          <MessageBar intent="error">
            <MessageBarBody>{messageOf(tickets.error)}</MessageBarBody>
          </MessageBar>
        ) : null}
      </div>
    </div>
  );
}
