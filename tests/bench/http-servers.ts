import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpFunction } from '../../functions/src/platform/functions.js';

/**
 * Three servers answering the same JSON body, for the dev host overhead figures: a bare node:http
 * handler, the dev host with a raw Functions handler, and the dev host with the platform wrapper.
 * Prints their URLs as one JSON line and runs until killed.
 */
process.env.LOG_LEVEL = 'error';
const { useSampleSettings } = await import('../../functions/dev/local-settings.js');
useSampleSettings();
const { startHttpHost } = await import('../../functions/dev/host/http-host.js');
const { httpRoute } = await import('../../functions/src/platform/http.js');

export const benchBody = {
  service: 'bench',
  items: Array.from({ length: 10 }, (_, index) => ({ id: `item-${index}`, score: index * 7 })),
};
const text = JSON.stringify(benchBody);

const bare = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
});
await new Promise<void>((resolve) => bare.listen(0, 'localhost', resolve));

const raw: HttpFunction = {
  kind: 'http',
  name: 'bench-raw',
  route: 'bench/raw',
  methods: ['GET'],
  permission: 'public',
  handler: async () => ({ jsonBody: benchBody }),
};
const wrapped = httpRoute({
  name: 'bench-wrapped',
  route: 'bench/wrapped',
  methods: ['GET'],
  permission: 'public',
  handler: async () => ({ json: benchBody }),
});
const host = await startHttpHost({
  name: 'bench',
  port: 0,
  functions: [raw, wrapped],
  allowedOrigins: [],
});

process.stdout.write(
  `${JSON.stringify({
    bare: `http://localhost:${(bare.address() as AddressInfo).port}/`,
    hostRaw: `${host.url}/bench/raw`,
    hostWrapped: `${host.url}/bench/wrapped`,
  })}\n`,
);
