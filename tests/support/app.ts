import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/** Browser-side helpers for the e2e tests: sign in through the real screens. */

export const DEMO_PASSWORD = 'Harborview!Demo2026';

export async function signInThroughForm(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${inject('webUrl')}/login`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
}

/** The newest mail of a kind to someone, from the dev outbox. */
export async function mailTo(to: string, kind: string): Promise<{ text: string; subject: string }> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const response = await fetch(`${inject('authUrl')}/dev/outbox?to=${encodeURIComponent(to)}`);
    const { messages } = (await response.json()) as {
      messages: { kind: string; text: string; subject: string }[];
    };
    const found = messages.find((message) => message.kind === kind);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
) {
  const response = await fetch(`${inject('authUrl')}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}
