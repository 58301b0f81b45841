import {
  Body1,
  Button,
  Caption1,
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
  Radio,
  RadioGroup,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleFilled } from '@fluentui/react-icons';
import { useState } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { downloadText } from '../../../lib/download';
import { useAction } from '../../../lib/use-action';
import { useMfaActions } from '../api/security';
import { backupCodesFile } from './backup-codes-file';

type Step = 'intro' | 'setup' | 'backup' | 'complete';
type MethodType = 'authenticator' | 'sms' | 'email';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  qr: {
    alignSelf: 'center',
    width: '200px',
    height: '200px',
    padding: tokens.spacingHorizontalS,
    backgroundColor: '#ffffff',
    borderRadius: tokens.borderRadiusMedium,
  },
  secret: {
    fontFamily: tokens.fontFamilyMonospace,
    padding: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  codes: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, 1fr)',
    gap: tokens.spacingVerticalS,
    margin: 0,
    padding: tokens.spacingHorizontalM,
    listStyleType: 'none',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase400,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
  done: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  doneIcon: { color: tokens.colorPaletteGreenForeground1, fontSize: '32px' },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

const names: Record<MethodType, string> = {
  authenticator: 'Authenticator app',
  sms: 'Text message',
  email: 'Email',
};

/**
 * Intro, setup (QR code or a sent code), backup codes when first issued, complete. The caller
 * mounts it afresh for each opening, so it always starts at the intro.
 */
export function MfaSetupDialog({
  open,
  email,
  onClose,
}: {
  open: boolean;
  email: string;
  onClose(): void;
}) {
  const styles = useStyles();
  const actions = useMfaActions();
  const [step, setStep] = useState<Step>('intro');
  const [type, setType] = useState<MethodType>('authenticator');
  const [name, setName] = useState(names.authenticator);
  const [phone, setPhone] = useState('');
  const [setup, setSetup] = useState<Awaited<ReturnType<typeof actions.setup>> | null>(null);
  const [code, setCode] = useState('');
  const [backupCodes, setBackupCodes] = useState<string[]>([]);
  const start = useAction(
    async () => {
      setSetup(
        await actions.setup({
          type,
          name: name.trim() || names[type],
          ...(type === 'sms' ? { phoneNumber: phone } : {}),
        }),
      );
      setStep('setup');
    },
    { fallback: 'Failed to setup MFA' },
  );
  const confirm = useAction(
    async (methodId: string) => {
      const result = await actions.verify(methodId, code);
      if (result.backupCodes?.length) {
        setBackupCodes(result.backupCodes);
        setStep('backup');
      } else {
        setStep('complete');
      }
    },
    { fallback: 'Invalid verification code', onError: () => setCode('') },
  );
  const busy = start.busy || confirm.busy;
  // A rejected code names its field; the step has only the one.
  const error = start.error ?? confirm.error?.replace(/^code: /, '') ?? null;

  const reset = () => {
    setStep('intro');
    setType('authenticator');
    setName(names.authenticator);
    setPhone('');
    setSetup(null);
    setCode('');
    setBackupCodes([]);
    start.reset();
    confirm.reset();
  };

  const begin = () => {
    confirm.reset();
    if (type === 'sms' && !phone.trim()) {
      start.fail('Enter the phone number to send codes to');
      return;
    }
    void start.run();
  };

  const verify = () => {
    if (!setup) return;
    start.reset();
    void confirm.run(setup.methodId);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(_, data) => {
        if (!data.open) onClose();
      }}
    >
      <DialogSurface aria-describedby="mfa-step-description">
        <DialogBody>
          <DialogTitle>
            {step === 'intro'
              ? 'Add a verification method'
              : step === 'setup'
                ? names[type]
                : step === 'backup'
                  ? 'Save your backup codes'
                  : 'Two-factor authentication is on'}
          </DialogTitle>
          <DialogContent className={styles.stack}>
            {step === 'intro' ? (
              <>
                <Body1 id="mfa-step-description">
                  After your password, Lotwise will ask for a code from this method. Choose how you
                  want to receive codes.
                </Body1>
                <RadioGroup
                  value={type}
                  aria-label="Method type"
                  onChange={(_, data) => {
                    const next = data.value as MethodType;
                    setType(next);
                    setName(names[next]);
                  }}
                >
                  <Radio
                    value="authenticator"
                    label="Authenticator app (recommended): Microsoft Authenticator, Google Authenticator, 1Password…"
                  />
                  <Radio value="sms" label="Text message to your phone" />
                  <Radio value="email" label={`Email to ${email}`} />
                </RadioGroup>
                <Field label="Name for this method" hint="Helps you tell your methods apart.">
                  <Input value={name} maxLength={60} onChange={(_, data) => setName(data.value)} />
                </Field>
                {type === 'sms' ? (
                  <Field
                    label="Phone number"
                    required
                    hint="International format, e.g. +15551234567."
                  >
                    <Input type="tel" value={phone} onChange={(_, data) => setPhone(data.value)} />
                  </Field>
                ) : null}
              </>
            ) : null}
            {step === 'setup' && setup ? (
              <>
                {setup.qrCode ? (
                  <>
                    <Body1 id="mfa-step-description">
                      Scan this QR code with your authenticator app, then enter the 6-digit code it
                      shows.
                    </Body1>
                    <img
                      src={setup.qrCode}
                      alt="QR code for your authenticator app"
                      className={styles.qr}
                    />
                    <Caption1>Can’t scan it? Enter this key in the app instead:</Caption1>
                    <div className={styles.row}>
                      <code className={styles.secret}>{setup.secret}</code>
                      <CopyButton
                        text={setup.secret ?? ''}
                        size="small"
                        aria-label="Copy the setup key"
                      />
                    </div>
                  </>
                ) : (
                  <Body1 id="mfa-step-description">
                    We sent a 6-digit code to {setup.codeSentTo}. Enter it to finish.
                  </Body1>
                )}
                <Field label="Verification code" required hint="6 digits">
                  <Input
                    value={code}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    onChange={(_, data) => setCode(data.value.replace(/\D/g, '').slice(0, 6))}
                  />
                </Field>
              </>
            ) : null}
            {step === 'backup' ? (
              <>
                <Body1 id="mfa-step-description">
                  If you lose your device, each of these codes signs you in once. They are shown
                  only now: download or copy them and keep them somewhere safe.
                </Body1>
                <ul className={styles.codes} aria-label="Backup codes">
                  {backupCodes.map((backup) => (
                    <li key={backup}>{backup}</li>
                  ))}
                </ul>
                <div className={styles.row}>
                  <Button
                    onClick={() =>
                      downloadText('lotwise-backup-codes.txt', backupCodesFile(email, backupCodes))
                    }
                  >
                    Download as text file
                  </Button>
                  <CopyButton text={backupCodes.join('\n')} label="Copy codes" />
                </div>
              </>
            ) : null}
            {step === 'complete' ? (
              <div className={styles.done} id="mfa-step-description">
                <CheckmarkCircleFilled className={styles.doneIcon} />
                <Body1>
                  Your new method is ready. Lotwise will ask for a code each time you sign in.
                </Body1>
              </div>
            ) : null}
            {error ? (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            {step === 'intro' ? (
              <>
                <Button onClick={onClose}>Cancel</Button>
                <Button appearance="primary" disabled={busy} onClick={begin}>
                  {busy ? 'Setting up...' : 'Continue'}
                </Button>
              </>
            ) : null}
            {step === 'setup' ? (
              <>
                <Button onClick={reset}>Back</Button>
                <Button appearance="primary" disabled={code.length !== 6 || busy} onClick={verify}>
                  {busy ? 'Verifying...' : 'Verify'}
                </Button>
              </>
            ) : null}
            {step === 'backup' ? (
              <Button appearance="primary" onClick={() => setStep('complete')}>
                I saved my codes
              </Button>
            ) : null}
            {step === 'complete' ? (
              <Button appearance="primary" onClick={onClose}>
                Done
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
