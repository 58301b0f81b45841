import { describe, expect, it } from 'vitest';
import { grown, StringMap, StringTable } from './string-table.js';

describe('StringTable', () => {
  it('numbers each string once, in the order added, and gives it back', () => {
    const table = new StringTable();
    expect(table.add('ada@example.com')).toBe(0);
    expect(table.add('bob@example.com')).toBe(1);
    expect(table.add('ada@example.com')).toBe(0);
    expect(table.size).toBe(2);
    expect(table.find('bob@example.com')).toBe(1);
    expect(table.find('carol@example.com')).toBe(-1);
    expect(table.has('ada@example.com')).toBe(true);
    expect(table.has('Ada@example.com')).toBe(false);
    expect([table.at(0), table.at(1)]).toEqual(['ada@example.com', 'bob@example.com']);
    expect(() => table.at(2)).toThrow(RangeError);
  });

  it('tells apart strings of other lengths, prefixes and characters beyond ASCII', () => {
    const table = new StringTable();
    const strings = ['', 'a', 'ab', 'abc', 'é', 'e\u0301', 'ﬀ', '日本', '😀', 'a😀b'];
    strings.forEach((text, index) => expect(table.add(text)).toBe(index));
    strings.forEach((text, index) => {
      expect(table.find(text)).toBe(index);
      expect(table.at(index)).toBe(text);
    });
  });

  it('keeps every string as it grows past its first buffers and tables', () => {
    const table = new StringTable();
    const count = 200_000;
    // Long enough that the text spans several of the table's buffers.
    const key = (index: number) => `bidder-${index}-${'x'.repeat(index % 40)}@example.com`;
    const misnumbered: number[] = [];
    for (let index = 0; index < count; index += 1) {
      if (table.add(key(index)) !== index) misnumbered.push(index);
    }
    expect(misnumbered).toEqual([]);
    expect(table.size).toBe(count);
    for (let index = 0; index < count; index += 997) {
      expect(table.find(key(index))).toBe(index);
      expect(table.at(index)).toBe(key(index));
    }
    expect(table.find(`bidder-${count}@example.com`)).toBe(-1);
  });

  it('gives back UUIDs as they came, and tells them from text of any other case or shape', () => {
    const table = new StringTable();
    const strings = [
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '0F8FAD5B-D9CB-469F-A165-70867728950E',
      '0f8fad5b-d9cb-469f-a165-70867728950f',
      '0f8fad5bd9cb469fa16570867728950e',
      '0f8fad5b-d9cb-469f-a165-70867728950e ',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'zf8fad5b-d9cb-469f-a165-70867728950e',
    ];
    strings.forEach((text, index) => expect(table.add(text)).toBe(index));
    strings.forEach((text, index) => {
      expect(table.find(text)).toBe(index);
      expect(table.at(index)).toBe(text);
    });
  });

  it('takes strings as long as 64 KB of UTF-8, and refuses longer ones', () => {
    const table = new StringTable();
    const long = 'é'.repeat(0x7fff);
    expect(table.at(table.add(long))).toBe(long);
    expect(() => table.add('x'.repeat(0x10000))).toThrow(RangeError);
    expect(table.size).toBe(1);
  });
});

describe('grown', () => {
  it('answers the same array while it is long enough, and a longer copy when not', () => {
    const array = Int32Array.from([1, 2, 3]);
    expect(grown(array, 3)).toBe(array);
    const larger = grown(array, 4);
    expect(larger).toBeInstanceOf(Int32Array);
    expect(larger.length).toBe(6);
    expect([...larger.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect(grown(array, 100).length).toBe(100);
  });
});

describe('StringMap', () => {
  it('names a value by each key, keeps the first unless told to replace it, and forgets', () => {
    const map = new StringMap();
    expect(map.get('vase|Ceramics')).toBeUndefined();
    map.setIfAbsent('vase|Ceramics', 'item-1');
    map.setIfAbsent('vase|Ceramics', 'item-2');
    map.setIfAbsent('clock|Clocks', 'item-2');
    expect(map.get('vase|Ceramics')).toBe('item-1');
    expect(map.get('clock|Clocks')).toBe('item-2');
    map.set('vase|Ceramics', 'item-3');
    expect(map.get('vase|Ceramics')).toBe('item-3');
    // Forgetting another value leaves the key as it is.
    map.forget('vase|Ceramics', 'item-1');
    expect(map.get('vase|Ceramics')).toBe('item-3');
    map.forget('vase|Ceramics', 'item-3');
    expect(map.get('vase|Ceramics')).toBeUndefined();
    map.setIfAbsent('vase|Ceramics', 'item-4');
    expect(map.get('vase|Ceramics')).toBe('item-4');
    expect(map.get('clock|Clocks')).toBe('item-2');
  });

  it('keeps every key as it grows past its first tables', () => {
    const map = new StringMap();
    const count = 50_000;
    for (let index = 0; index < count; index += 1) map.set(`key-${index}`, `value-${index % 1000}`);
    const wrong: number[] = [];
    for (let index = 0; index < count; index += 1) {
      if (map.get(`key-${index}`) !== `value-${index % 1000}`) wrong.push(index);
    }
    expect(wrong).toEqual([]);
  });
});
