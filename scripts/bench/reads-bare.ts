// The ceiling for `npm run bench:reads`: a bare Fastify route answering the bytes of the shared
// story (read from the file named on the command line) from memory, with no plugins, hooks or
// logging. Run as its own process; prints "ready on http://localhost:PORT" when listening.
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const body = await readFile(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/shared', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
const { port } = await listenAppOnLoopback(app);
console.log(`ready on http://localhost:${port}`);
