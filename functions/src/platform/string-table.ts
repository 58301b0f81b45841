import { randomInt } from 'node:crypto';

/** Text is kept in pieces of this size, so a table outgrows at most one piece at a time. */
const PIECE_BYTES = 1 << 20;
const EMPTY = -1;
/** A UUID as `randomUUID` writes them: kept as its 16 bytes rather than 36 of text. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Follows a packed UUID's bytes: 0xff never occurs in UTF-8, so no text is kept the same way. */
const PACKED = 0xff;
const PACKED_LENGTH = 17;
/** Each run of hex digits of a UUID's text, and where its bytes go. */
const UUID_PARTS = [
  [0, 8, 0],
  [9, 13, 4],
  [14, 18, 6],
  [19, 23, 8],
  [24, 36, 10],
] as const;

/** The array, or a larger copy of it (twice as long at least) when `needed` outgrows it. */
export function grown<T extends Uint32Array | Int32Array | Uint16Array>(
  array: T,
  needed: number,
): T {
  if (needed <= array.length) return array;
  const larger = new (array.constructor as new (length: number) => T)(
    Math.max(needed, array.length * 2),
  );
  larger.set(array);
  return larger;
}

/**
 * A set of strings, each numbered in the order it was added, for the hundreds of thousands of
 * keys an import remembers. The text is kept as UTF-8 in large buffers and found through an
 * open-addressed table of numbers: a string costs its bytes and about twenty more, where a
 * JavaScript Set or Map costs several times that in small objects the garbage collector must
 * carry, and leaves the tables it outgrows behind as garbage. Lower-case UUIDs (document ids)
 * are kept as their 16 bytes.
 */
export class StringTable {
  private readonly pieces: Buffer[] = [Buffer.allocUnsafe(PIECE_BYTES)];
  /** Where the current piece is free from. */
  private used = 0;
  /** Each string's piece (high bits) and offset in it (low 20 bits), length, and hash. */
  private places = new Uint32Array(1024);
  private lengths = new Uint16Array(1024);
  private hashes = new Int32Array(1024);
  /** Open addressing: a string's number at its hash's slot or the next free one after it. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private count = 0;
  private scratch = Buffer.allocUnsafe(1024);
  /** Seeded per table, so no file can be made of keys that all share a slot. */
  private readonly seed = randomInt(0x7fffffff);

  get size(): number {
    return this.count;
  }

  /** The number of `text`, or -1 when the table does not hold it. */
  find(text: string): number {
    const length = this.encode(text);
    const slot = this.slotOf(this.hash(length), length);
    return this.slots[slot] as number;
  }

  has(text: string): boolean {
    return this.find(text) !== EMPTY;
  }

  /** The number of `text`: the one it has, or the next one. */
  add(text: string): number {
    const length = this.encode(text);
    const hash = this.hash(length);
    const slot = this.slotOf(hash, length);
    const found = this.slots[slot] as number;
    if (found !== EMPTY) return found;
    const index = this.count;
    this.store(index, hash, length);
    this.slots[slot] = index;
    this.count += 1;
    // Filled up to three quarters: the slots are the larger part of what a table keeps per string.
    if (this.count * 4 > this.slots.length * 3) this.rehash();
    return index;
  }

  /** The string numbered `index`. */
  at(index: number): string {
    if (index < 0 || index >= this.count) throw new RangeError(`No string numbered ${index}`);
    const place = this.places[index] as number;
    const start = place & (PIECE_BYTES - 1);
    const piece = this.pieces[Math.floor(place / PIECE_BYTES)] as Buffer;
    const length = this.lengths[index] as number;
    if (length === PACKED_LENGTH && piece[start + 16] === PACKED) {
      const hex = piece.toString('hex', start, start + 16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    return piece.toString('utf8', start, start + length);
  }

  /** The text in the scratch buffer, as UTF-8 or a packed UUID; its length in bytes. */
  private encode(text: string): number {
    if (text.length === 36 && UUID.test(text)) {
      for (const [from, to, at] of UUID_PARTS) this.scratch.write(text.slice(from, to), at, 'hex');
      this.scratch[16] = PACKED;
      return PACKED_LENGTH;
    }
    // A UTF-16 unit takes at most three bytes of UTF-8.
    if (text.length * 3 > this.scratch.length) {
      this.scratch = Buffer.allocUnsafe(text.length * 3);
    }
    const length = this.scratch.write(text, 0, 'utf8');
    if (length > 0xffff) throw new RangeError('A string table holds strings of up to 64 KB');
    return length;
  }

  /** FNV-1a over the bytes, from the table's seed, then MurmurHash3's finalizer to spread them. */
  private hash(length: number): number {
    let hash = 0x811c9dc5 ^ this.seed;
    for (let i = 0; i < length; i += 1) {
      hash = Math.imul(hash ^ (this.scratch[i] as number), 0x01000193);
    }
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    return hash ^ (hash >>> 16);
  }

  /** The slot holding the scratch text's number, or the free slot where it would go. */
  private slotOf(hash: number, length: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.slots[slot] as number;
      if (index === EMPTY) return slot;
      if (this.hashes[index] === hash && this.lengths[index] === length && this.same(index)) {
        return slot;
      }
    }
  }

  private same(index: number): boolean {
    const place = this.places[index] as number;
    const start = place & (PIECE_BYTES - 1);
    const piece = this.pieces[Math.floor(place / PIECE_BYTES)] as Buffer;
    const length = this.lengths[index] as number;
    return piece.compare(this.scratch, 0, length, start, start + length) === 0;
  }

  private store(index: number, hash: number, length: number) {
    if (this.used + length > PIECE_BYTES) {
      this.pieces.push(Buffer.allocUnsafe(PIECE_BYTES));
      this.used = 0;
    }
    const piece = this.pieces.length - 1;
    this.scratch.copy(this.pieces[piece] as Buffer, this.used, 0, length);
    this.places = grown(this.places, index + 1);
    this.lengths = grown(this.lengths, index + 1);
    this.hashes = grown(this.hashes, index + 1);
    this.places[index] = piece * PIECE_BYTES + this.used;
    this.lengths[index] = length;
    this.hashes[index] = hash;
    this.used += length;
  }

  private rehash() {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index += 1) {
      let slot = (this.hashes[index] as number) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = index;
    }
    this.slots = slots;
  }
}

/**
 * Keys, each naming one string (a record's document id), kept in string tables: what an import
 * remembers of every record on file and every row it writes, at a few dozen bytes a key rather
 * than the small objects of a Map. A key no longer names anything once forgotten.
 */
export class StringMap {
  private readonly keys = new StringTable();
  private readonly values = new StringTable();
  /** Per key: its value's number plus one; 0 for none. */
  private targets = new Int32Array(1024);

  get(key: string): string | undefined {
    const number = this.keys.find(key);
    const target = number === EMPTY ? 0 : (this.targets[number] as number);
    return target ? this.values.at(target - 1) : undefined;
  }

  /** The key names `value` from now on. */
  set(key: string, value: string) {
    const number = this.keys.add(key);
    this.targets = grown(this.targets, number + 1);
    this.targets[number] = this.values.add(value) + 1;
  }

  /** The key names `value` unless it names something already. */
  setIfAbsent(key: string, value: string) {
    const number = this.keys.add(key);
    this.targets = grown(this.targets, number + 1);
    if (this.targets[number] === 0) this.targets[number] = this.values.add(value) + 1;
  }

  /** The key names nothing, if it named `value`. */
  forget(key: string, value: string) {
    const number = this.keys.find(key);
    const named = this.values.find(value);
    if (number !== EMPTY && named !== EMPTY && this.targets[number] === named + 1) {
      this.targets[number] = 0;
    }
  }
}
