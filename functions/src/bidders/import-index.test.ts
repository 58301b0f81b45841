import { describe, expect, it } from 'vitest';
import { MAX_BLOCK } from './duplicate-matcher.js';
import { ImportIndex, type NewBidder } from './import-index.js';

const written = (id: string, matchKeys: string[], noteIds: string[] = []): NewBidder => ({
  record: { id, matchKeys } as unknown as NewBidder['record'],
  notes: noteIds.map((noteId) => ({ id: noteId }) as unknown as NewBidder['notes'][number]),
});

describe('ImportIndex', () => {
  it('knows the bidder IDs (and aliases) and mailboxes claimed, whatever their case', () => {
    const index = new ImportIndex();
    index.claim('B-100', ['OLD-7'], 'Ada@Example.com');
    expect(index.has('b-100', null)).toBe(true);
    expect(index.has('old-7', undefined)).toBe(true);
    expect(index.has(undefined, 'ada@example.com')).toBe(true);
    expect(index.has('B-101', 'ada+x@example.com')).toBe(false);
    // At Gmail a +tag and dots reach the same mailbox.
    index.claim('B-200', [], 'grace.hopper@gmail.com');
    expect(index.has(undefined, 'GraceHopper+auctions@googlemail.com')).toBe(true);
  });

  it('tells the bidders it wrote from those the account had, and lists them in order', () => {
    const index = new ImportIndex();
    index.place('old-1', ['e:ada@example.com']);
    expect(index.writtenIds()).toEqual([]);
    index.wrote([written('new-1', ['e:bob@example.com'], ['note-1'])]);
    index.wrote([written('new-2', [])]);
    expect(index.writtenIds()).toEqual(['new-1', 'new-2']);
    expect(index.wroteBidder('new-2')).toBe(true);
    expect(index.wroteBidder('old-1')).toBe(false);
    expect(index.wroteBidder('unknown')).toBe(false);
    expect(index.notes).toEqual(['note-1']);
  });

  it('finds the blocks that hold a new bidder beside another, in the order placed', () => {
    const index = new ImportIndex();
    index.place('old-1', ['e:ada@example.com', 'p:6175550142']);
    index.place('old-2', ['p:6175550142']);
    index.place('old-3', ['e:carol@example.com']);
    index.wrote([written('new-1', ['e:ada@example.com']), written('new-2', ['e:dan@example.com'])]);
    expect(index.blocksWithNewBidders()).toEqual([['old-1', 'new-1']]);
  });

  it('counts as its own a bidder of the account it wrote before it was resumed', () => {
    const index = new ImportIndex();
    index.place('old-1', ['p:6175550142']);
    index.place('mine-1', ['p:6175550142']);
    index.place('old-2', ['e:carol@example.com']);
    expect(index.blocksWithNewBidders()).toEqual([]);
    index.wroteEarlier('mine-1');
    index.wroteEarlier('unknown');
    index.wrote([written('new-1', [])]);
    expect(index.wroteBidder('mine-1')).toBe(true);
    expect(index.wroteBidder('old-1')).toBe(false);
    expect(index.writtenIds()).toEqual(['mine-1', 'new-1']);
    expect(index.blocksWithNewBidders()).toEqual([['old-1', 'mine-1']]);
  });

  it('passes over blocks too large to mean anything', () => {
    const index = new ImportIndex();
    for (let member = 0; member < MAX_BLOCK; member += 1) index.place(`old-${member}`, ['p:1']);
    index.wrote([written('new-1', ['p:1'])]);
    expect(index.blocksWithNewBidders()).toEqual([]);
  });
});
