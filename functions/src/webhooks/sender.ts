import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { DeliveryAttempt } from './webhooks.schema.js';
import type { Target } from './address-check.js';

const TIMEOUT_MS = 10_000;
const SNIPPET_BYTES = 1024;
const SNIPPET_CHARS = 500;

/**
 * POSTs a delivery to the checked address and nowhere else: the connection uses the address the
 * check resolved (TLS still verifies the host's certificate by name), redirects are not followed,
 * and only the start of the answer is read.
 */
export function post(
  target: Target,
  body: string,
  headers: Record<string, string>,
): Promise<Omit<DeliveryAttempt, 'at'>> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Lotwise-Webhooks/1.0',
          ...headers,
        },
        lookup: pinned,
        agent: false,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          resolve({
            statusCode: response.statusCode ?? null,
            durationMs: elapsed(),
            error: null,
            responseSnippet: Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET_CHARS) || null,
          });
        response.on('data', (chunk: Buffer) => {
          if (size >= SNIPPET_BYTES) return;
          chunks.push(chunk.subarray(0, SNIPPET_BYTES - size));
          size += chunk.length;
          // Enough for the log: the rest of a long answer is not read.
          if (size >= SNIPPET_BYTES) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    request.on('error', (error: Error) =>
      resolve({
        statusCode: null,
        durationMs: elapsed(),
        error:
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? `No answer within ${TIMEOUT_MS / 1000} s`
            : error.message,
        responseSnippet: null,
      }),
    );
    request.end(body);
  });
}
