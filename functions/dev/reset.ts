import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local-settings.js';

/** `npm run reset`: forgets all local data (Cosmos emulator and Azurite). */
const dataDir = join(repoRoot, '.data');
rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(`Removed ${dataDir}. The next npm start begins with a fresh demo tenant.\n`);
