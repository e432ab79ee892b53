import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_OWNING_SERVICES, SERVICES } from '@authz/shared/topology';

/**
 * A throw-away repository whose apps are tiny stand-ins honouring the run contract: each
 * service listens on its gRPC and metrics ports, the gateway answers /health after reaching
 * PostgreSQL and Redis, the worker sends one mail, everyone exits 0 on SIGTERM. Knobs:
 * STUB_CRASH=<service> exits 3 at once, STUB_CRASH_LATE=<service> a second after it listens,
 * STUB_FAIL_MIGRATION=<service> fails its migration, STUB_SLOW_MIGRATION=<service> takes 20 s.
 * Each process records what it saw in $STUB_LOG_DIR.
 */
export async function createStubRepository(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'authz-stub-repo-'));
  await writeFile(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - apps/*\n');
  const write = async (app: string, file: string, source: string) => {
    await mkdir(join(root, 'apps', app, 'dist'), { recursive: true });
    await writeFile(
      join(root, 'apps', app, 'package.json'),
      JSON.stringify({ name: `@stub/${app}`, type: 'module' }),
    );
    await writeFile(join(root, 'apps', app, 'dist', file), source);
  };
  for (const service of SERVICES) {
    await write(service.name, 'main.js', serviceStub(service.name, service.envPrefix, service.index));
  }
  for (const service of DATA_OWNING_SERVICES)
    await write(service.name, 'migrate.js', migrateStub(service.name));
  await write('gateway', 'main.js', gatewayStub());
  return root;
}

const common = String.raw`
import { appendFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import http from 'node:http';
const env = process.env;
const record = (file, text) => env.STUB_LOG_DIR && appendFileSync(env.STUB_LOG_DIR + '/' + file, text + '\n');
const log = (msg) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg }));
const reach = (url) => new Promise((resolve) => {
  const { hostname, port } = new URL(url);
  const socket = createConnection({ host: hostname, port: Number(port) });
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});
const redisPing = (url) => new Promise((resolve) => {
  const { hostname, port, password } = new URL(url);
  const socket = createConnection({ host: hostname, port: Number(port) });
  let reply = '';
  socket.once('connect', () => socket.write('AUTH ' + decodeURIComponent(password) + '\r\nPING\r\n'));
  socket.on('data', (chunk) => { reply += chunk; if (reply.includes('PONG')) { socket.destroy(); resolve(true); } });
  socket.once('error', () => resolve(false));
  setTimeout(() => { socket.destroy(); resolve(false); }, 1000);
});
const closeOn = (servers) => {
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => {
    record('stopped.log', process.argv[1]);
    Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() => process.exit(0));
  });
};
`;

function serviceStub(name: string, prefix: string, index: number): string {
  return `${common}
const name = ${JSON.stringify(name)};
writeFileSync(env.STUB_LOG_DIR + '/env-' + name + '.json', JSON.stringify(env));
const crash = () => { console.error('stub ' + name + ' crashing'); process.exit(3); };
if (env.STUB_CRASH === name) crash();
if (env.STUB_CRASH_LATE === name) setTimeout(crash, 1000);
const host = env.GRPC_HOST || '127.0.0.1';
const grpcPort = Number(env.${prefix}_GRPC_PORT || Number(env.GRPC_PORT_BASE || 50050) + ${index});
const metricsPort = Number(env.${prefix}_METRICS_PORT || Number(env.METRICS_PORT_BASE || 9400) + ${index});
const servers = [http.createServer((_, res) => res.end('# stub\\n')).listen(metricsPort, host)];
if (name !== 'mailer-worker') servers.push(createServer((socket) => socket.end()).listen(grpcPort, host));
closeOn(servers);
log(name + ' listening');
if (name === 'mailer-worker') sendMail().catch((error) => console.error('stub mail failed', error));

async function sendMail() {
  const { hostname, port } = new URL(env.SMTP_URL);
  const link = env.JWT_ISSUER + '/auth/verify?token=' + 'ab'.repeat(32);
  // Quoted-printable with a soft break inside the link, as nodemailer sends it.
  const encoded = link.replace(/=/g, '=3D');
  const body = 'Confirm your address: ' + encoded.slice(0, 30) + '=\\r\\n' + encoded.slice(30);
  const lines = ['EHLO stub', 'MAIL FROM:<no-reply@localhost>', 'RCPT TO:<alice@example.com>', 'DATA',
    'Subject: =?UTF-8?Q?Verify_your_email?=\\r\\nContent-Type: text/plain; charset=utf-8\\r\\n' +
    'Content-Transfer-Encoding: quoted-printable\\r\\n\\r\\n' + body + '\\r\\n.', 'QUIT'];
  const socket = createConnection({ host: hostname, port: Number(port) });
  let replies = 0;
  socket.on('data', (chunk) => {
    for (const line of String(chunk).split('\\r\\n')) if (/^\\d{3} /.test(line)) {
      replies += 1;
      const next = lines.shift();
      if (next) socket.write(next + '\\r\\n'); else socket.end();
    }
  });
}
`;
}

function migrateStub(name: string): string {
  return `${common}
const name = ${JSON.stringify(name)};
log(name + ' migrating');
if (env.STUB_SLOW_MIGRATION === name) await new Promise((resolve) => setTimeout(resolve, 20000));
if (!(await reach(env.DATABASE_URL))) { console.error('database unreachable'); process.exit(1); }
record('migrations.log', name);
if (env.STUB_FAIL_MIGRATION === name) { console.error('stub migration failed'); process.exit(2); }
log(name + ' migrated');
`;
}

function gatewayStub(): string {
  return `${common}
writeFileSync(env.STUB_LOG_DIR + '/env-gateway.json', JSON.stringify(env));
const server = http.createServer(async (req, res) => {
  if (req.url !== '/health') { res.statusCode = 404; return res.end(); }
  const database = (await reach(env.DATABASE_URL)) ? 'connected' : 'disconnected';
  const cache = (await redisPing(env.REDIS_URL)) ? 'connected' : 'disconnected';
  const ok = database === 'connected' && cache === 'connected';
  res.statusCode = ok ? 200 : 503;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: ok ? 'ok' : 'unhealthy', timestamp: new Date().toISOString(), services: { database, cache } }));
}).listen(Number(env.PORT), env.HOST);
closeOn([server]);
log('gateway listening');
`;
}
