// Setup of the fast tier (`npm run test:fast`): its tests may use no network, no database and no
// child process, so that the tier stays fast and a developer can run it anywhere. Opening a socket
// (loopback included: a fake server, Redis, PostgreSQL), listening on a port, starting a process or
// a worker thread throws here, naming the tier the file belongs in. A file that needs one of those is
// named for its tier: `*.api.test.ts` (in process, on both databases), `*.loopback.test.ts` (sockets
// on loopback, no database), `*.process.test.ts` (child processes and spawned servers).
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const net = require('node:net') as typeof import('node:net');
const childProcess = require('node:child_process') as Record<string, unknown>;
const workerThreads = require('node:worker_threads') as Record<string, unknown>;

function refuse(what: string): never {
  throw new Error(
    `${what} in the fast tier: name the file *.loopback.test.ts (sockets), *.api.test.ts (a database) ` +
      'or *.process.test.ts (child processes), so that it runs in its own tier',
  );
}

net.Socket.prototype.connect = function connect() {
  refuse('A network connection');
} as typeof net.Socket.prototype.connect;
net.Server.prototype.listen = function listen() {
  refuse('Listening on a port');
} as typeof net.Server.prototype.listen;
for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync']) {
  childProcess[name] = () => refuse(`A child process (${name})`);
}
workerThreads.Worker = class {
  constructor() {
    refuse('A worker thread');
  }
};
// ESM imports of node:net and node:child_process read these through the builtin's live exports.
syncBuiltinESMExports();
