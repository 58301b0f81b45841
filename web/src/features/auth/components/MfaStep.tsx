import {
  Body1,
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import type { MfaChallenge } from '@contracts/identity/auth/auth.schema';
import { useAction } from '../../../lib/use-action';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  actions: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    justifyContent: 'space-between',
    flexWrap: 'wrap',
  },
});

const typeLabels = {
  authenticator: 'Authenticator app',
  sms: 'Text message',
  email: 'Email',
} as const;

/** The second step of sign-in: an authenticator code, a code we sent, or a backup code. */
export default function MfaStep({
  challenge,
  onVerify,
  onSendCode,
  onBack,
}: {
  challenge: MfaChallenge;
  onVerify(code: string): Promise<unknown>;
  onSendCode(methodId: string): Promise<void>;
  onBack(): void;
}) {
  const styles = useStyles();
  const primary = challenge.methods.find((method) => method.primary) ?? challenge.methods[0];
  const [methodId, setMethodId] = useState(primary?.id ?? '');
  const [useBackup, setUseBackup] = useState(false);
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState(challenge.codeSentTo);
  const method = challenge.methods.find((candidate) => candidate.id === methodId);
  const valid = useBackup ? /^[a-z0-9]{4}-?[a-z0-9]{4}$/i.test(code.trim()) : /^\d{6}$/.test(code);
  const verify = useAction(onVerify, {
    fallback: 'Invalid verification code',
    onError: () => setCode(''),
  });
  const resend = useAction(async (chosen: { id: string; destination: string | null }) => {
    await onSendCode(chosen.id);
    setSentTo(chosen.destination);
  });
  const busy = verify.busy || resend.busy;
  const error = verify.error ?? resend.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    resend.reset();
    void verify.run(code.trim());
  };

  const send = () => {
    if (!method) return;
    verify.reset();
    void resend.run(method);
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {useBackup ? (
        <Body1>Enter one of your backup codes. Each code works once.</Body1>
      ) : (
        <>
          {challenge.methods.length > 1 ? (
            <Field label="Verify with">
              <RadioGroup value={methodId} onChange={(_, data) => setMethodId(data.value)}>
                {challenge.methods.map((candidate) => (
                  <Radio
                    key={candidate.id}
                    value={candidate.id}
                    label={`${candidate.name} (${typeLabels[candidate.type]}${candidate.destination ? `, ${candidate.destination}` : ''})`}
                  />
                ))}
              </RadioGroup>
            </Field>
          ) : null}
          <Body1>
            {method?.type === 'authenticator'
              ? 'Enter the 6-digit code from your authenticator app.'
              : sentTo
                ? `We sent a 6-digit code to ${sentTo}.`
                : `Send a code to ${method?.destination ?? 'your device'}, then enter it here.`}
          </Body1>
          {method && method.type !== 'authenticator' ? (
            <Button appearance="secondary" onClick={send} disabled={busy}>
              {sentTo ? 'Send a new code' : 'Send code'}
            </Button>
          ) : null}
        </>
      )}
      <Field label={useBackup ? 'Backup code' : 'Verification code'} required>
        <Input
          value={code}
          autoComplete="one-time-code"
          inputMode={useBackup ? 'text' : 'numeric'}
          maxLength={useBackup ? 9 : 6}
          onChange={(_, data) =>
            setCode(useBackup ? data.value : data.value.replace(/\D/g, '').slice(0, 6))
          }
        />
      </Field>
      {error ? (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      ) : null}
      <Button type="submit" appearance="primary" size="large" disabled={!valid || busy}>
        {busy ? 'Verifying...' : 'Verify'}
      </Button>
      <div className={styles.actions}>
        <Button appearance="subtle" onClick={onBack}>
          Back
        </Button>
        {challenge.backupCodesAvailable ? (
          <Button
            appearance="subtle"
            onClick={() => {
              setUseBackup((current) => !current);
              setCode('');
            }}
          >
            {useBackup ? 'Use a verification code' : 'Use a backup code'}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
