import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_OWNING_SERVICES, SERVICES } from '@authz/shared/topology';
import { afterAll, describe, expect, it } from 'vitest';
import { appEntry, walkUpTo } from './paths.js';
import { isPortFree } from './ports.js';
import {
  alive,
  descendants,
  freePortBlock,
  PACKAGE_DIR,
  runLauncher,
  stopForGood,
  type RunningLauncher,
} from './test/launcher.js';

/**
 * `pnpm start` for real: the built apps with an embedded PostgreSQL, Redis and mail sink in a
 * temporary data folder, on ports no other test uses. turbo's `test` builds the apps first
 * (they are dependencies of this package); a missing build fails the test rather than
 * skipping it, so CI can never pass without having started the suite.
 */
const root = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;
const entries = [
  ...SERVICES.map((service) => appEntry(root, service.name, 'main')),
  ...DATA_OWNING_SERVICES.map((service) => appEntry(root, service.name, 'migrate')),
  appEntry(root, 'gateway', 'main'),
];

describe('pnpm start (built apps, embedded backends)', () => {
  let dataDir: string;
  let launcher: RunningLauncher;
  let url: string;
  let ports: number[] = [];

  afterAll(async () => {
    if (launcher) await stopForGood(launcher);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts the suite and answers GET /health', async () => {
    expect(
      entries.filter((entry) => !existsSync(entry)),
      'apps not built (run pnpm build)',
    ).toEqual([]);
    dataDir = await mkdtemp(join(tmpdir(), 'authz-start-'));
    const port = (await freePortBlock(1)) + 1;
    const grpcBase = await freePortBlock(6);
    const metricsBase = await freePortBlock(6);
    const started = Date.now();
    launcher = runLauncher({
      AUTHZ_DATA_DIR: dataDir,
      PORT: String(port),
      GRPC_PORT_BASE: String(grpcBase),
      METRICS_PORT_BASE: String(metricsBase),
    });
    [, url] = (await launcher.waitFor(/Authorization server listening on (http:\/\/\S+)/, 200_000)) as [
      string,
      string,
    ];
    console.info(`pnpm start: ready in ${Date.now() - started} ms`);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);

    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { timestamp: string };
    expect(body).toEqual({
      status: 'ok',
      timestamp: expect.any(String),
      services: { database: 'connected', cache: 'connected' },
    });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);

    const embedded = [
      ...launcher
        .output()
        .matchAll(/\(embedded\) on 127\.0\.0\.1:(\d+)|mail sink on smtp:\/\/127\.0\.0\.1:(\d+)/g),
    ];
    ports = [
      port,
      ...SERVICES.flatMap((service) => [grpcBase + service.index, metricsBase + service.index]),
      ...embedded.map((match) => Number(match[1] ?? match[2])),
    ];
  });

  it('delivers the verification mail of a registration to the mail sink', async () => {
    const email = `start-test-${Date.now()}@example.com`;
    const registered = await fetch(`${url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Correct-Horse-Battery-Staple-42!' }),
    });
    expect(registered.status).toBe(201);
    // The mailed link opens the confirmation page (docs/security.md #12, finding 10); its token
    // is confirmed here through the JSON API.
    const [, token] = (await launcher.waitFor(
      /mail\s+\| {3}link: http\S+\/ui\/verify-email\?token=([0-9a-f]{64})/,
      60_000,
    )) as [string, string];
    expect(launcher.output()).toContain(`message to ${email}`);
    const verified = await fetch(`${url}/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ message: 'Email verified', email });
  });

  it('stops every process on SIGTERM, exits 0 and frees every port', async () => {
    const children = descendants(launcher.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(9);
    launcher.child.kill('SIGTERM');
    expect(await launcher.exited).toEqual({ code: 0, signal: null });
    expect(children.filter(alive)).toEqual([]);
    for (const port of ports) expect(await isPortFree(port), `port ${port}`).toBe(true);
  });
});
