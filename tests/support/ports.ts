import { createServer, type Server } from 'node:net';

/**
 * Ports nobody listens on right now, from the operating system, all different: each is held
 * until every one is chosen, as a port just let go may be handed out again at once (two services
 * of one stack were once given the same port and the second could not start).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            resolve(typeof address === 'object' && address ? address.port : 0);
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) =>
            server.listening ? server.close(() => resolve()) : resolve(),
          ),
      ),
    );
  }
}

/** A port nobody listens on right now, from the operating system. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}
