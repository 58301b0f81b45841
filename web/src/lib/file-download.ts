import { ApiError, endSession, errorFrom, refreshAccessToken } from './api-client';
import { tokens } from './auth-store';

/** A file is built on the server as it is sent: give it longer than a JSON call. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

async function get(url: string, accessToken: string | null): Promise<Response> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  try {
    return await fetch(url, {
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
      signal: timeout,
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiError('The service did not answer in time', 0, 'timeout');
    throw new ApiError(
      error instanceof Error && error.message ? error.message : 'The service could not be reached',
      0,
      'network',
    );
  }
}

/** The name the service gave the file (`filename*` first), when the browser lets us read it. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const exact = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? undefined;
}

/** Hands the bytes to the browser as a download saved under the name. */
export function saveFile(fileName: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.click();
  // Some browsers read the file after the click returns: let the address go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a file only a signed-in caller may have (an export): the same token handling as every
 * other call (refreshed once when the service says it has expired), a failure as ApiError with
 * the service's message, and the file saved under the service's name, else `fallbackName`.
 * Resolves with the name it was saved under.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  let response = await get(url, tokens.access());
  if (response.status === 401 && tokens.refresh()) {
    let accessToken: string;
    try {
      accessToken = await refreshAccessToken();
    } catch (refusal) {
      // A refresh that got no answer is not a refused session: keep it for the next try.
      if (!(refusal instanceof ApiError && refusal.status === 401)) throw refusal;
      endSession('Your session has ended. Sign in again.');
      throw await errorFrom(response);
    }
    response = await get(url, accessToken);
  }
  if (!response.ok) throw await errorFrom(response);
  const fileName = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  saveFile(fileName, await response.blob());
  return fileName;
}
