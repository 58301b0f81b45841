import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { tokens } from './auth-store';
import { downloadFile, fileNameOf } from './file-download';
import { memoryStorage } from './memory-storage.test-support';

const saved: { download: string; href: string }[] = [];

beforeEach(() => {
  saved.length = 0;
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('navigator', {});
  vi.stubGlobal('document', {
    createElement: () => {
      const link = { href: '', download: '', rel: '', click: () => saved.push(link) };
      return link;
    },
  });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:zip');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  tokens.setAccess(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('fileNameOf', () => {
  it('reads the exact name first, else the plain one', () => {
    expect(
      fileNameOf(
        `attachment; filename="Photo _lgem_lde.png"; filename*=UTF-8''Photo%20%C3%96lgem%C3%A4lde.png`,
      ),
    ).toBe('Photo Ölgemälde.png');
    expect(fileNameOf('attachment; filename="LC-2026-0001-documents.zip"')).toBe(
      'LC-2026-0001-documents.zip',
    );
    expect(fileNameOf(`attachment; filename="a.zip"; filename*=UTF-8''%E0%A4%A`)).toBe('a.zip');
    expect(fileNameOf(null)).toBeUndefined();
  });
});

describe('downloadFile', () => {
  it('fetches with the token and saves the file under the name given when none can be read', async () => {
    tokens.setAccess('access-1');
    const fetchMock = vi.fn(
      async () => new Response(new Uint8Array([0x50, 0x4b]), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(await downloadFile('http://api/cases/c1/documents/export', 'LC-1-documents.zip')).toBe(
      'LC-1-documents.zip',
    );
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer access-1');
    expect(saved).toEqual([
      expect.objectContaining({ download: 'LC-1-documents.zip', href: 'blob:zip' }),
    ]);
  });

  it("fails with the service's message, saving nothing", async () => {
    tokens.setAccess('access-1');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              error: { code: 'conflict', message: 'This case has no documents to export' },
            }),
            { status: 409, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    const failure = downloadFile('http://api/cases/c1/documents/export', 'x.zip');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow('This case has no documents to export');
    expect(saved).toEqual([]);
  });
});
