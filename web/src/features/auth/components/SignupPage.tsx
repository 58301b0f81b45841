import {
  Button,
  Caption1,
  Checkbox,
  Dropdown,
  Field,
  Input,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  ProgressBar,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { roleLabels } from '@contracts/identity/permissions';
import { languages, timezones } from '@contracts/identity/shared/common.schema';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useFormGridStyles } from '../../../components/form-grid';
import { PasswordInput } from '../../../components/PasswordInput';
import { messageOf } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';
import { useInvitation, usePasswordStrength } from '../api/account';
import { signup } from '../api/session';
import { AuthLayout } from './AuthLayout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    border: 'none',
    margin: 0,
    padding: 0,
  },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalS },
  checks: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  actions: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap-reverse',
  },
  note: { color: tokens.colorNeutralForeground3 },
});

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const defaultZone = timezones.some((zone) => zone.value === browserZone)
  ? browserZone
  : 'America/New_York';

function StrengthMeter({
  password,
  email,
  name,
}: {
  password: string;
  email: string;
  name: string;
}) {
  const [debounced, setDebounced] = useState(password);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(password), 300);
    return () => clearTimeout(timer);
  }, [password]);
  const { data } = usePasswordStrength(debounced, email, name);
  if (!password || !data) return null;
  const colour = data.score >= 3 ? 'success' : data.score === 2 ? 'warning' : 'error';
  return (
    <div aria-live="polite">
      <ProgressBar
        value={(data.score + 1) / 5}
        color={colour}
        thickness="large"
        aria-label="Password strength"
      />
      <Caption1>
        {data.label}
        {data.suggestions[0] ? ` · ${data.suggestions[0]}` : ''}
      </Caption1>
    </div>
  );
}

export default function SignupPage() {
  const styles = useStyles();
  const formGrid = useFormGridStyles();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const invitationCode = params.get('invitation');
  const invitation = useInvitation(invitationCode);
  const [form, setForm] = useState({
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    password: '',
    confirmPassword: '',
    timezone: defaultZone,
    language: 'en' as 'en' | 'es' | 'fr' | 'de',
    termsAccepted: false,
    privacyPolicyAccepted: false,
    marketingOptIn: false,
  });
  const email = invitation.data?.email ?? form.email;
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const mismatch = form.confirmPassword.length > 0 && form.password !== form.confirmPassword;
  const valid = useMemo(
    () =>
      Boolean(
        form.firstName.trim() &&
        form.lastName.trim() &&
        email.trim() &&
        form.password &&
        form.confirmPassword,
      ) &&
      form.password === form.confirmPassword &&
      form.password.length >= 8 &&
      form.termsAccepted &&
      form.privacyPolicyAccepted,
    [form, email],
  );

  const create = useAction(
    async () => {
      await signup({
        firstName: form.firstName,
        lastName: form.lastName,
        email,
        password: form.password,
        confirmPassword: form.confirmPassword,
        ...(form.phone.trim() ? { phone: form.phone.trim() } : {}),
        preferences: {
          timezone: form.timezone,
          language: form.language,
          marketingOptIn: form.marketingOptIn,
          termsAccepted: form.termsAccepted,
          privacyPolicyAccepted: form.privacyPolicyAccepted,
        },
        ...(invitationCode ? { invitationCode } : {}),
      });
      navigate('/', { replace: true });
    },
    { fallback: 'Sign up failed' },
  );
  const fieldErrors = create.fieldErrors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      create.fail('Please fill in all required fields and accept the terms');
      return;
    }
    void create.run();
  };

  if (invitation.data?.existingUser) {
    return (
      <AuthLayout
        title="Accept your invitation"
        subtitle={`${invitation.data.invitedBy} invited you to ${invitation.data.accountName}.`}
      >
        <MessageBar intent="info">
          <MessageBarBody>
            {invitation.data.email} already has a Lotwise sign-in. Sign in to join{' '}
            {invitation.data.accountName}.
          </MessageBarBody>
        </MessageBar>
        <Button
          appearance="primary"
          onClick={() => navigate(`/login?invitation=${encodeURIComponent(invitationCode ?? '')}`)}
        >
          Sign in to accept
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      wide
      title="Create New User Account"
      subtitle={
        invitation.data
          ? `${invitation.data.invitedBy} invited you to ${invitation.data.accountName} as ${roleLabels[invitation.data.role]}.`
          : 'Your account is linked to an organization during onboarding.'
      }
    >
      {invitation.error ? (
        <MessageBar intent="error">
          <MessageBarBody>{messageOf(invitation.error)}</MessageBarBody>
        </MessageBar>
      ) : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.section}>
          <legend className={styles.legend}>
            <Subtitle2>Personal Information</Subtitle2>
          </legend>
          <div className={formGrid.row}>
            <Field label="First name" required validationMessage={fieldErrors.firstName}>
              <Input
                autoComplete="given-name"
                value={form.firstName}
                onChange={(_, data) => set('firstName', data.value)}
              />
            </Field>
            <Field label="Last name" required validationMessage={fieldErrors.lastName}>
              <Input
                autoComplete="family-name"
                value={form.lastName}
                onChange={(_, data) => set('lastName', data.value)}
              />
            </Field>
          </div>
          <Field label="Email" required validationMessage={fieldErrors.email}>
            <Input
              type="email"
              autoComplete="email"
              value={email}
              readOnly={Boolean(invitation.data)}
              onChange={(_, data) => set('email', data.value)}
            />
          </Field>
          <Field
            label="Phone"
            hint="Optional. International format is best, e.g. +15551234567."
            validationMessage={fieldErrors.phone}
          >
            <Input
              type="tel"
              autoComplete="tel"
              value={form.phone}
              onChange={(_, data) => set('phone', data.value)}
            />
          </Field>
          <div className={formGrid.row}>
            <Field
              label="Password"
              required
              hint="At least 8 characters including uppercase, lowercase, a number and a special character."
              validationMessage={fieldErrors.password}
            >
              <PasswordInput
                autoComplete="new-password"
                value={form.password}
                onChange={(_, data) => set('password', data.value)}
              />
            </Field>
            <Field
              label="Confirm password"
              required
              hint="Type the same password again."
              validationState={mismatch ? 'error' : 'none'}
              validationMessage={mismatch ? 'Passwords do not match' : fieldErrors.confirmPassword}
            >
              <PasswordInput
                autoComplete="new-password"
                value={form.confirmPassword}
                onChange={(_, data) => set('confirmPassword', data.value)}
              />
            </Field>
          </div>
          <StrengthMeter
            password={form.password}
            email={email}
            name={`${form.firstName} ${form.lastName}`}
          />
        </fieldset>
        <fieldset className={styles.section}>
          <legend className={styles.legend}>
            <Subtitle2>Preferences</Subtitle2>
          </legend>
          <div className={formGrid.row}>
            <Field label="Timezone">
              <Dropdown
                value={
                  timezones.find((zone) => zone.value === form.timezone)?.label ?? form.timezone
                }
                selectedOptions={[form.timezone]}
                onOptionSelect={(_, data) => set('timezone', data.optionValue ?? defaultZone)}
              >
                {timezones.map((zone) => (
                  <Option key={zone.value} value={zone.value}>
                    {zone.label}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label="Language">
              <Dropdown
                value={languages.find((language) => language.value === form.language)?.label ?? ''}
                selectedOptions={[form.language]}
                onOptionSelect={(_, data) =>
                  set('language', (data.optionValue ?? 'en') as typeof form.language)
                }
              >
                {languages.map((language) => (
                  <Option key={language.value} value={language.value}>
                    {language.label}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          </div>
        </fieldset>
        <div className={styles.checks}>
          {/* The policies open in a new tab, so the form keeps what was typed. */}
          <Checkbox
            checked={form.termsAccepted}
            onChange={(_, data) => set('termsAccepted', Boolean(data.checked))}
            label={
              <>
                I accept the{' '}
                <Link href="/terms" target="_blank" rel="noopener noreferrer">
                  Terms of Service
                </Link>
              </>
            }
          />
          <Checkbox
            checked={form.privacyPolicyAccepted}
            onChange={(_, data) => set('privacyPolicyAccepted', Boolean(data.checked))}
            label={
              <>
                I accept the{' '}
                <Link href="/privacy" target="_blank" rel="noopener noreferrer">
                  Privacy Policy
                </Link>
              </>
            }
          />
          <Checkbox
            checked={form.marketingOptIn}
            onChange={(_, data) => set('marketingOptIn', Boolean(data.checked))}
            label="Send me product news by email (optional)"
          />
        </div>
        {create.error ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{create.error}</MessageBarBody>
          </MessageBar>
        ) : null}
        <div className={styles.actions}>
          <Button appearance="secondary" onClick={() => navigate('/login')}>
            Back to Login
          </Button>
          <Button type="submit" appearance="primary" disabled={!valid || create.busy}>
            {create.busy ? 'Creating Account...' : 'Create Account'}
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}
