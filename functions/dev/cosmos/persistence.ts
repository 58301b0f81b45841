import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  type WriteStream,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EmulatorAccount, EmulatorItems, ItemData } from './emulator-types.js';

const require = createRequire(import.meta.url);

/**
 * One line of the journal (and of the snapshot, which is a journal of only live items):
 * an item stored or removed, named by its `_self` path.
 */
type JournalRecord =
  { op: 'set'; self: string; data: ItemData; ridCount: number } | { op: 'del'; self: string };

interface ItemsPrototype {
  _set(this: EmulatorItems, data: ItemData): ItemData;
  delete(this: EmulatorItems, idOrRid: string, partition: unknown): void;
}

/** `/dbs/{db}`, `/dbs/{db}/colls/{coll}` or `/dbs/{db}/colls/{coll}/docs/{doc}/`. */
function itemsFor(account: EmulatorAccount, self: string): EmulatorItems | undefined {
  const parts = self.split('/').filter(Boolean);
  if (parts[0] !== 'dbs') return undefined;
  if (parts.length === 2) return account.databases;
  const database = account.database(parts[1] as string);
  if (parts.length === 4 && parts[2] === 'colls') return database.collections;
  if (parts.length === 6 && parts[4] === 'docs') {
    return database.collection(parts[3] as string).documents;
  }
  // User-defined functions are not used by Lotwise and are not persisted.
  return undefined;
}

function ridOf(self: string): string {
  return self.split('/').filter(Boolean).at(-1) as string;
}

/**
 * Keeps the emulator's in-memory account on disk: every change is appended to a journal; at start
 * the snapshot and journal are replayed and compacted into a new snapshot.
 */
export class AccountPersistence {
  private journal: WriteStream | undefined;
  private replaying = false;
  private readonly snapshotPath: string;
  private readonly journalPath: string;

  constructor(
    private readonly account: EmulatorAccount,
    dataDir: string,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.snapshotPath = join(dataDir, 'snapshot.ndjson');
    this.journalPath = join(dataDir, 'journal.ndjson');
  }

  /** Records every later change of any item collection in the journal. */
  install(): void {
    const itemsModule = require('@vercel/cosmosdb-server/lib/account/items.js') as {
      default: { prototype: ItemsPrototype };
    };
    const prototype = itemsModule.default.prototype;
    const originalSet = prototype._set;
    const originalDelete = prototype.delete;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const persistence = this;
    prototype._set = function set(data) {
      const stored = originalSet.call(this, data);
      persistence.append({ op: 'set', self: stored._self, data: stored, ridCount: this._ridCount });
      return stored;
    };
    prototype.delete = function remove(idOrRid, partition) {
      const existing = this._item('/id', idOrRid, partition).read();
      originalDelete.call(this, idOrRid, partition);
      if (existing) persistence.append({ op: 'del', self: existing._self });
    };
  }

  private append(record: JournalRecord): void {
    if (this.replaying || !this.journal) return;
    this.journal.write(`${JSON.stringify(record)}\n`);
  }

  private apply(record: JournalRecord): void {
    const items = itemsFor(this.account, record.self);
    if (!items) return;
    if (record.op === 'set') {
      items._set(record.data);
      items._ridCount = Math.max(items._ridCount, record.ridCount);
    } else if (items._data.has(ridOf(record.self))) {
      items.delete(ridOf(record.self), undefined);
    }
  }

  private async replay(path: string): Promise<number> {
    if (!existsSync(path)) return 0;
    let count = 0;
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line) continue;
      try {
        this.apply(JSON.parse(line) as JournalRecord);
        count += 1;
      } catch {
        // A line cut short by a crash ends the journal; everything before it is kept.
        break;
      }
    }
    return count;
  }

  private async writeSnapshot(): Promise<void> {
    const temporary = `${this.snapshotPath}.tmp`;
    const out = createWriteStream(temporary, 'utf8');
    const write = (record: JournalRecord) =>
      out.write(`${JSON.stringify(record)}\n`)
        ? Promise.resolve()
        : new Promise<void>((resolve) => out.once('drain', () => resolve()));
    const dump = async (items: EmulatorItems, visit?: (data: ItemData) => Promise<void>) => {
      for (const item of items._data.values()) {
        const data = item.read();
        if (!data) continue;
        await write({ op: 'set', self: data._self, data, ridCount: items._ridCount });
        if (visit) await visit(data);
      }
    };
    await dump(this.account.databases, async (databaseData) => {
      const database = this.account.database(databaseData._rid);
      await dump(database.collections, async (collectionData) => {
        await dump(database.collection(collectionData._rid).documents);
      });
    });
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    renameSync(temporary, this.snapshotPath);
  }

  /** Loads what is on disk, compacts it, and starts journalling. Returns the records replayed. */
  async load(): Promise<number> {
    this.replaying = true;
    const replayed = (await this.replay(this.snapshotPath)) + (await this.replay(this.journalPath));
    this.replaying = false;
    await this.writeSnapshot();
    this.journal = createWriteStream(this.journalPath, { flags: 'w' });
    return replayed;
  }

  /** Flushes the journal; call before the process exits. */
  async close(): Promise<void> {
    const journal = this.journal;
    this.journal = undefined;
    if (journal) await new Promise<void>((resolve) => journal.end(() => resolve()));
  }
}
