import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipEntry } from './zip.js';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('zipStream', () => {
  it('writes every entry, byte for byte, under its name', async () => {
    const entries: ZipEntry[] = [
      { name: 'one.pdf', data: Buffer.from('%PDF-1.4 one\n\u00e2') },
      { name: 'Photo Ölgemälde.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]) },
    ];
    const zip = await JSZip.loadAsync(await bytesOf(zipStream(entries.values() as never)));
    expect(Object.keys(zip.files)).toEqual(['one.pdf', 'Photo Ölgemälde.png']);
    for (const entry of entries) {
      const read = await zip.file(entry.name)!.async('nodebuffer');
      expect(read.equals(entry.data)).toBe(true);
    }
  });

  it('asks for the next entry only once the one before has gone to the reader', async () => {
    const size = 1024 * 1024;
    let received = 0;
    const seenWhenAsked: number[] = [];
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (const name of ['a.bin', 'b.bin', 'c.bin']) {
        seenWhenAsked.push(received);
        // Random bytes do not compress, so what the reader has received measures the progress.
        yield { name, data: randomBytes(size) };
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of zipStream(entries())) {
      received += (chunk as Buffer).length;
      chunks.push(chunk as Buffer);
    }
    const zip = await JSZip.loadAsync(Buffer.concat(chunks));
    expect(Object.keys(zip.files)).toEqual(['a.bin', 'b.bin', 'c.bin']);
    // Whatever is still on its way is a few stream buffers, never a whole file.
    expect(seenWhenAsked[0]).toBe(0);
    expect(seenWhenAsked[1]).toBeGreaterThan(size - 256 * 1024);
    expect(seenWhenAsked[2]).toBeGreaterThan(2 * size - 256 * 1024);
  });

  it('ends with the error when reading an entry fails', async () => {
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield { name: 'a.txt', data: Buffer.from('a') };
      throw new Error('the store went away');
    }
    await expect(text(zipStream(entries()))).rejects.toThrow('the store went away');
  });
});
