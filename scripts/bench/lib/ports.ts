// A free loopback port for the benchmarks' servers: asked of the OS, then released for the caller.
import { createServer, type AddressInfo } from 'node:net';

/** A port nothing listens on right now: a server can be told it up front (below LOG_LEVEL info it prints no ready line). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
