import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { repoRoot } from '../../functions/dev/local-settings.js';

export const artifactsDir = join(repoRoot, 'tests', 'artifacts');

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const viewports = {
  desktop: { width: 1366, height: 768 },
  mobile: { width: 390, height: 844 },
} as const;

export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: viewports.desktop, ...options });
  const page = await context.newPage();
  // Fail a stuck step with its own message, well inside the test timeout.
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}

/**
 * Resolves once the page's finite animations and transitions have ended. A dialog caught fading
 * in shows the page through it: a screenshot is blurred and axe measures blended colours.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        // A cancelled animation rejects `finished`; it has ended all the same.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Saves a full-page screenshot under tests/artifacts for a person to look at, once still. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await animationsSettled(page);
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

/**
 * Accessibility violations on the page, as "rule: offending html". Fluent's focus manager
 * (tabster) inserts aria-hidden focus sentinels that only redirect focus; they are excluded.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).exclude('[data-tabster-dummy]').analyze();
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

/**
 * Text too faint for its background, as axe's color-contrast rule finds it: "html (ratio)". Run
 * on its own where a screen's colours vary with its data (badges, tinted rows).
 */
export async function contrastViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page })
    .withRules(['color-contrast'])
    .exclude('[data-tabster-dummy]')
    .analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${node.html} (${node.any[0]?.message ?? violation.id})`),
  );
}
