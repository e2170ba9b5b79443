// The ceiling for `npm run bench:reads`: a bare Fastify route answering the bytes of the shared
// story (read from the file named on the command line) from memory, with no plugins, hooks or
// logging. Run as its own process; prints "ready on http://localhost:PORT" when listening.
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';

const body = await readFile(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/shared', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`ready on http://localhost:${typeof address === 'object' && address ? address.port : 0}`);
