import { sendMessage } from '../../platform/mail.js';
import { settings } from '../../platform/settings.js';

/** The messages identity sends, in plain words, each with a plain-text and an HTML body. */

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function link(path: string, query: Record<string, string>): string {
  const url = new URL(path, settings().PUBLIC_WEB_URL);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

async function email(
  to: string,
  kind: string,
  subject: string,
  lines: string[],
  action?: { label: string; url: string },
) {
  const text = [
    ...lines,
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    '',
    '— Lotwise',
  ].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escape(line)}</p>`),
    action ? `<p><a href="${escape(action.url)}">${escape(action.label)}</a></p>` : '',
    '<p>— Lotwise</p>',
  ].join('');
  await sendMessage({ channel: 'email', to, kind, subject, text, html });
}

export const identityMail = {
  invitation: (input: {
    to: string;
    code: string;
    accountName: string;
    invitedBy: string;
    role: string;
    personalMessage: string | null;
    expiresAt: string;
  }) =>
    email(
      input.to,
      'invitation',
      `${input.invitedBy} invited you to ${input.accountName} on Lotwise`,
      [
        `${input.invitedBy} invited you to join ${input.accountName} on Lotwise as ${input.role}.`,
        ...(input.personalMessage ? [`“${input.personalMessage}”`] : []),
        `The invitation works once and expires on ${new Date(input.expiresAt).toUTCString()}.`,
      ],
      { label: 'Accept the invitation', url: link('/', { invitation: input.code }) },
    ),

  verifyEmail: (to: string, token: string) =>
    email(
      to,
      'email-verify',
      'Confirm your email address for Lotwise',
      ['Confirm that this is your email address to finish setting up your Lotwise sign-in.'],
      { label: 'Confirm email address', url: link('/verify-email', { token }) },
    ),

  passwordReset: (to: string, token: string, requestedByAdmin: string | null) =>
    email(
      to,
      'password-reset',
      'Reset your Lotwise password',
      [
        requestedByAdmin
          ? `${requestedByAdmin} asked Lotwise to send you a link to set a new password.`
          : 'Someone (hopefully you) asked to reset the password of your Lotwise sign-in.',
        'The link works once, for one hour. If you did not ask for this, you can ignore this email.',
      ],
      { label: 'Set a new password', url: link('/reset-password', { token }) },
    ),

  passwordChanged: (to: string) =>
    email(to, 'password-changed', 'Your Lotwise password was changed', [
      'The password of your Lotwise sign-in was just changed, and your other sessions were signed out.',
      'If this was not you, reset your password now and contact your account owner.',
    ]),

  emailChanged: (oldEmail: string, newEmail: string) =>
    email(oldEmail, 'email-changed', 'Your Lotwise sign-in email was changed', [
      `The email address of your Lotwise sign-in was changed to ${newEmail}.`,
      'If this was not you, contact your account owner at once.',
    ]),

  mfaCode: async (channel: 'email' | 'sms', to: string, code: string) => {
    const line = `Your Lotwise verification code is ${code}. It expires in 10 minutes.`;
    if (channel === 'sms') {
      await sendMessage({ channel, to, kind: 'mfa-code', subject: 'Lotwise code', text: line });
    } else {
      await email(to, 'mfa-code', 'Your Lotwise verification code', [
        line,
        'Do not share it with anyone.',
      ]);
    }
  },

  signInNotice: (to: string, accountName: string, userAgent: string, ipAddress: string) =>
    email(to, 'sign-in-notice', `New sign-in to ${accountName}`, [
      `Your Lotwise sign-in was just used to open ${accountName}.`,
      `Device: ${userAgent}`,
      `Address: ${ipAddress}`,
      'If this was not you, change your password and sign out of your other sessions.',
    ]),
};
