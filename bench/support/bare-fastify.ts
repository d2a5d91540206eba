// The baseline for the API's throughput: a bare Fastify route answering a fixed JSON body.
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const payload = JSON.parse(readFileSync(process.env.BARE_PAYLOAD_FILE ?? '', 'utf8')) as unknown;
const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok' }));
app.get('/api/bare', async () => payload);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
