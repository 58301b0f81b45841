// Browser tests drive Debian's Chromium; Playwright cannot download its own here.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const root = process.getuid?.() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    process.stdout.write(
      'Chromium is missing; installing Debian chromium for the browser tests…\n',
    );
    execFileSync('apt-get', ['install', '-y', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    process.stderr.write(
      `The browser tests need Chromium at ${chromium}. Install it with: sudo apt-get install -y chromium\n` +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
    );
    process.exit(1);
  }
}
