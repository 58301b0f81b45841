import { grown, StringTable } from '../platform/string-table.js';
import type { BidderRecord, NoteRecord } from './bidders.repo.js';
import { MAX_BLOCK, normaliseEmail } from './duplicate-matcher.js';

/** A new bidder with the note it arrives with, if any. */
export interface NewBidder {
  record: Omit<BidderRecord, 'accountId'>;
  notes: Omit<NoteRecord, 'accountId'>[];
}

/**
 * What an import keeps of every bidder, those there before and those it writes: enough to skip
 * exact duplicates (the same bidder ID or mailbox) without a query per row, and each bidder's
 * blocking keys to find likely duplicates afterwards. Rows themselves are not kept, and what is
 * kept is in string tables and number arrays outside the JavaScript heap (about 25 MB for a
 * hundred thousand bidders, where Sets and Maps of strings held 33 MB of small objects that the
 * garbage collector carried, and left more behind as they grew).
 */
export class ImportIndex {
  /** Bidder IDs and aliases, lower case. */
  private readonly ids = new StringTable();
  private readonly mailboxes = new StringTable();
  /** Document ids, numbered: the account's bidders first, then those this import wrote. */
  private readonly documents = new StringTable();
  /** The number of the first bidder this import wrote, once it has written one. */
  private firstWritten: number | undefined;
  /** Bidders of the account this import wrote before it was resumed (see `wroteEarlier`). */
  private readonly earlier = new Set<number>();
  private readonly keys = new StringTable();
  /** Per blocking key: its first member (a node number plus one; 0 for none) and how many. */
  private heads = new Int32Array(1024);
  private sizes = new Int32Array(1024);
  /** Members of the blocks as linked nodes: a bidder's number, and the block's next node. */
  private members = new Int32Array(1024);
  private next = new Int32Array(1024);
  private nodes = 0;
  readonly notes: string[] = [];

  has(bidderId: string | undefined, email: string | null | undefined) {
    const mailbox = normaliseEmail(email);
    return (
      (bidderId !== undefined && this.ids.has(bidderId.toLowerCase())) ||
      (mailbox !== null && this.mailboxes.has(mailbox))
    );
  }

  /** Takes a bidder ID, its aliases and email, so later rows with them are duplicates. */
  claim(bidderId: string, aliases: readonly string[], email: string | null) {
    this.ids.add(bidderId.toLowerCase());
    for (const alias of aliases) this.ids.add(alias.toLowerCase());
    const mailbox = normaliseEmail(email);
    if (mailbox) this.mailboxes.add(mailbox);
  }

  /** A bidder of the account and its blocking keys. */
  place(id: string, keys: readonly string[]) {
    const bidder = this.documents.add(id);
    for (const key of keys) {
      const block = this.keys.add(key);
      this.heads = grown(this.heads, block + 1);
      this.sizes = grown(this.sizes, block + 1);
      this.members = grown(this.members, this.nodes + 1);
      this.next = grown(this.next, this.nodes + 1);
      this.members[this.nodes] = bidder;
      this.next[this.nodes] = this.heads[block] as number;
      this.nodes += 1;
      this.heads[block] = this.nodes;
      this.sizes[block] = (this.sizes[block] as number) + 1;
    }
  }

  wrote(bidders: readonly NewBidder[]) {
    this.firstWritten ??= this.documents.size;
    for (const { record, notes } of bidders) {
      this.place(record.id, record.matchKeys);
      for (const note of notes) this.notes.push(note.id);
    }
  }

  /**
   * Marks a bidder of the account as this import's own: one it wrote before it was stopped and
   * resumed (read with the account's, so numbered among them).
   */
  wroteEarlier(id: string) {
    const bidder = this.documents.find(id);
    if (bidder >= 0 && !this.isWritten(bidder)) this.earlier.add(bidder);
  }

  private isWritten(bidder: number) {
    return (
      (this.firstWritten !== undefined && bidder >= this.firstWritten) || this.earlier.has(bidder)
    );
  }

  /** Whether this import wrote the bidder with this document id. */
  wroteBidder(id: string) {
    return this.isWritten(this.documents.find(id));
  }

  /** The document ids of the bidders this import wrote, in order. */
  writtenIds(): string[] {
    const ids = [...this.earlier].map((bidder) => this.documents.at(bidder));
    for (
      let bidder = this.firstWritten ?? this.documents.size;
      bidder < this.documents.size;
      bidder += 1
    ) {
      ids.push(this.documents.at(bidder));
    }
    return ids;
  }

  /** The blocks (their bidders' document ids) that can hold a pair with a bidder this import wrote. */
  blocksWithNewBidders(): string[][] {
    const found: string[][] = [];
    for (let block = 0; block < this.keys.size; block += 1) {
      const size = this.sizes[block] as number;
      if (size < 2 || size > MAX_BLOCK) continue;
      const members: number[] = [];
      for (let node = this.heads[block] as number; node; node = this.next[node - 1] as number) {
        members.push(this.members[node - 1] as number);
      }
      if (members.some((bidder) => this.isWritten(bidder))) {
        found.push(members.reverse().map((bidder) => this.documents.at(bidder)));
      }
    }
    return found;
  }
}
