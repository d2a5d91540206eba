// The baseline for the API's throughput: a bare Fastify route answering a fixed JSON body. /api/bare
// serializes the object on every request; /api/bare-text sends the same JSON as bytes already serialized,
// the framework's floor for answering those bytes (the cheapest route: nothing but sending them).
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const payloadBytes = readFileSync(process.env.BARE_PAYLOAD_FILE ?? '');
const payload = JSON.parse(payloadBytes.toString('utf8')) as unknown;
const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok' }));
app.get('/api/bare', async () => payload);
app.get('/api/bare-text', async (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(payloadBytes),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
