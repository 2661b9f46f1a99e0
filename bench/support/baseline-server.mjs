/**
 * The baseline for the HTTP figures: a bare Fastify 5 server with no auth, validation, storage or
 * logging. `GET /api/tasks` answers a pre-serialized JSON array read from BASELINE_BODY_FILE;
 * `POST /api/tasks` echoes the parsed body. Run by bench/api.ts as its own process.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.env.BASELINE_PORT);
const bodyFile = process.env.BASELINE_BODY_FILE;
if (!Number.isInteger(port) || !bodyFile) {
  process.stderr.write('baseline-server: set BASELINE_PORT and BASELINE_BODY_FILE\n');
  process.exit(1);
}
const tasksJson = fs.readFileSync(bodyFile, 'utf8');

const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
app.get('/api/health', async () => ({ status: 'ok' }));
app.get('/api/tasks', async (_request, reply) => reply.type('application/json; charset=utf-8').send(tasksJson));
app.post('/api/tasks', async (request) => request.body);

process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
await app.listen({ port, host: '127.0.0.1' });
