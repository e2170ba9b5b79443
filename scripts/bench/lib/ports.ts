// A free loopback port for the benchmarks' servers: asked of the OS, then released for the caller.
import { createServer } from 'node:net';
import { listenOnLoopback } from '../../../server/test/listen-on-loopback';

/** A port nothing listens on right now: a server can be told it up front (below LOG_LEVEL info it prints no ready line). */
export async function freePort(): Promise<number> {
  const server = createServer();
  const { port } = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
