// Starts a Node server (http or net) or a Fastify app on 127.0.0.1, on `port` or any free one (0), and
// says where: the one copy of the `listen(0, '127.0.0.1', …)` dance of the fakes, tests and benchmarks.
import type { Server } from 'node:net';

export async function listenOnLoopback(server: Server, port = 0): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return { port: address.port, url: `http://127.0.0.1:${address.port}` };
}

/** The same for a Fastify app, through its own listen (its ready hooks run first). */
export async function listenAppOnLoopback(app: {
  listen(options: { port: number; host: string }): Promise<string>;
  server: Server;
}): Promise<{ port: number; url: string }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the app has no TCP address');
  return { port: address.port, url: `http://127.0.0.1:${address.port}` };
}
