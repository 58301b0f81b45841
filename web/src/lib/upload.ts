import { ApiError, errorFrom, refreshAccessToken } from './api-client';
import { tokens } from './auth-store';

/** The share of the request sent so far, 0 to 1. */
export type UploadProgress = (sent: number) => void;

function post(url: string, form: FormData, accessToken: string | null, onProgress: UploadProgress) {
  return new Promise<Response>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    if (accessToken) request.setRequestHeader('authorization', `Bearer ${accessToken}`);
    request.setRequestHeader('accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      resolve(
        new Response(request.status === 204 ? null : request.responseText, {
          status: request.status,
          headers: { 'x-correlation-id': request.getResponseHeader('x-correlation-id') ?? '' },
        }),
      );
    request.onerror = () =>
      reject(new ApiError('The upload could not reach the service', 0, 'network'));
    request.send(form);
  });
}

/**
 * A multipart upload with progress, which fetch cannot report: XMLHttpRequest with the same token
 * handling as every other call (refreshed once when the service says it has expired).
 */
export async function uploadForm<T>(
  url: string,
  form: FormData,
  onProgress: UploadProgress,
): Promise<T> {
  let response = await post(url, form, tokens.access(), onProgress);
  if (response.status === 401 && tokens.refresh()) {
    response = await post(url, form, await refreshAccessToken(), onProgress);
  }
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}
