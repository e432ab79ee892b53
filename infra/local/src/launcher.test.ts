import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPortFree } from './ports.js';
import {
  alive,
  descendants,
  freePortBlock,
  runLauncher,
  stopForGood,
  type RunningLauncher,
} from './test/launcher.js';
import { createStubRepository } from './test/stub-apps.js';

/**
 * The launcher end to end against stub apps (src/test/stub-apps.ts), so its orchestration is
 * tested whatever state the real apps are in: embedded backends, migrations in order, every
 * process's environment, readiness, crash handling, leftovers and a clean stop.
 */
const LISTENING = /Authorization server listening on (http:\/\/\S+)/;

describe('pnpm start launcher (stub apps)', () => {
  let root: string;
  let logDir: string;
  let dataDir: string;
  const cleanups: RunningLauncher[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    root = await createStubRepository();
  });
  afterAll(async () => {
    // A failed assertion leaves a launcher running: stop it as a user would, never SIGKILL it
    // alone (its detached children would outlive it).
    await Promise.all(cleanups.map((launcher) => stopForGood(launcher)));
    for (const folder of [root, ...folders]) await rm(folder, { recursive: true, force: true });
  });

  type LaunchEnv = Record<string, string> & {
    PORT: string;
    GRPC_PORT_BASE: string;
    METRICS_PORT_BASE: string;
  };

  async function launch(
    extra: Record<string, string> = {},
    fresh = true,
  ): Promise<{ launcher: RunningLauncher; env: LaunchEnv }> {
    if (fresh) {
      dataDir = await mkdtemp(join(tmpdir(), 'authz-data-'));
      logDir = await mkdtemp(join(tmpdir(), 'authz-stub-log-'));
      folders.push(dataDir, logDir);
    }
    const env: LaunchEnv = {
      AUTHZ_ROOT_DIR: root,
      AUTHZ_DATA_DIR: dataDir,
      STUB_LOG_DIR: logDir,
      PORT: String((await freePortBlock(1)) + 1),
      GRPC_PORT_BASE: String(await freePortBlock(6)),
      METRICS_PORT_BASE: String(await freePortBlock(6)),
      AUTHZ_STOP_GRACE: '5',
      ...extra,
    };
    const launcher = runLauncher(env);
    cleanups.push(launcher);
    return { launcher, env };
  }

  async function stopAndCheckNothingLeft(launcher: RunningLauncher, ports: number[]): Promise<void> {
    const children = descendants(launcher.child.pid!);
    launcher.child.kill('SIGTERM');
    expect(await launcher.exited).toEqual({ code: 0, signal: null });
    expect(children.filter(alive)).toEqual([]);
    for (const port of ports) expect(await isPortFree(port)).toBe(true);
  }

  function embeddedPorts(output: string): number[] {
    return [
      ...output.matchAll(/\(embedded\) on 127\.0\.0\.1:(\d+)|mail sink on smtp:\/\/127\.0\.0\.1:(\d+)/g),
    ].map((m) => Number(m[1] ?? m[2]));
  }

  it('starts everything, serves /health, logs mail, and stops cleanly on SIGTERM', async () => {
    const { launcher, env } = await launch();
    const [, url] = await launcher.waitFor(LISTENING);
    expect(url).toBe(`http://127.0.0.1:${env.PORT}`);
    await launcher.waitFor(new RegExp(`  Issuer     http://localhost:${env.PORT}\\n`));
    await launcher.waitFor(/Try it: docs\/getting-started\.md/);

    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      timestamp: expect.any(String),
      services: { database: 'connected', cache: 'connected' },
    });

    expect((await readFile(join(logDir, 'migrations.log'), 'utf8')).trim().split('\n')).toEqual([
      'identity',
      'oauth',
      'clients',
      'wallet-bridge',
    ]);
    const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    const seen = JSON.parse(await readFile(join(logDir, 'env-oauth.json'), 'utf8')) as Record<string, string>;
    const base = Number(env.GRPC_PORT_BASE);
    expect(seen).toMatchObject({
      KEY_ENCRYPTION_KEY: secrets.KEY_ENCRYPTION_KEY,
      SECRET_HASH_KEY: secrets.SECRET_HASH_KEY,
      DATABASE_URL: expect.stringMatching(/^postgresql:\/\/authz:[0-9a-f]{64}@127\.0\.0\.1:\d+\/authz$/),
      REDIS_URL: expect.stringMatching(/^redis:\/\/:[0-9a-f]{64}@127\.0\.0\.1:\d+$/),
      SMTP_URL: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/),
      IDENTITY_GRPC_URL: `127.0.0.1:${base + 1}`,
      WALLET_BRIDGE_GRPC_URL: `127.0.0.1:${base + 5}`,
      JWT_ISSUER: `http://localhost:${env.PORT}`,
      LOG_LEVEL: 'info',
    });

    await launcher.waitFor(/mail\s+\| message to alice@example\.com: Verify your email/);
    await launcher.waitFor(
      new RegExp(`mail\\s+\\| {3}link: http://localhost:${env.PORT}/auth/verify\\?token=(ab){32}\\n`),
    );
    expect(launcher.output()).toMatch(/oauth\s+\| INFO oauth listening/);

    const ports = [
      Number(env.PORT),
      ...[1, 2, 3, 4, 5].map((n) => base + n),
      ...embeddedPorts(launcher.output()),
    ];
    expect(ports).toHaveLength(9);
    await stopAndCheckNothingLeft(launcher, ports);
    // Every service heard SIGTERM and closed by itself (the stubs record it).
    expect((await readFile(join(logDir, 'stopped.log'), 'utf8')).trim().split('\n')).toHaveLength(7);
    expect(launcher.output()).toMatch(/local\s+\| stopped\n/);
  });

  it('reuses the secrets and the PostgreSQL cluster on the next start', async () => {
    const before = await readFile(join(dataDir, 'secrets.json'), 'utf8');
    const { launcher } = await launch({}, false);
    await launcher.waitFor(LISTENING);
    expect(launcher.output()).not.toContain('creating a PostgreSQL cluster');
    expect(launcher.output()).not.toContain('generated KEY_ENCRYPTION_KEY');
    await stopAndCheckNothingLeft(launcher, []);
    expect(await readFile(join(dataDir, 'secrets.json'), 'utf8')).toBe(before);
  });

  it.each([
    ['while the suite starts', 'STUB_CRASH'],
    ['after the suite is ready', 'STUB_CRASH_LATE'],
  ])('stops everything and exits non-zero when a service dies %s', async (_, knob) => {
    const { launcher } = await launch({ [knob]: 'oauth' });
    const children = new Set<number>();
    const watch = setInterval(() => descendants(launcher.child.pid!).forEach((pid) => children.add(pid)), 50);
    const exit = await launcher.exited;
    clearInterval(watch);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(launcher.output()).toMatch(/oauth exited with code 3 unexpectedly: stopping everything/);
    expect(launcher.output()).not.toMatch(/could not start/);
    expect(children.size).toBeGreaterThan(3);
    expect([...children].filter(alive)).toEqual([]);
  });

  it('stops at a failed migration, naming it, before any service starts', async () => {
    const { launcher } = await launch({ STUB_FAIL_MIGRATION: 'clients' });
    expect(await launcher.exited).toEqual({ code: 1, signal: null });
    expect(launcher.output()).toMatch(
      /could not start: the clients migrations failed: migrate\.js exited with code 2/,
    );
    expect(launcher.output()).not.toMatch(/identity\s+\| INFO identity listening/);
  });

  it.each([
    ['while PostgreSQL is being created', /creating a PostgreSQL cluster/],
    ['during a migration', /identity:migrate\s+\| INFO identity migrating/],
  ])('stops cleanly when SIGTERM arrives %s', async (_, moment) => {
    const { launcher } = await launch({ STUB_SLOW_MIGRATION: 'identity' });
    const children = new Set<number>();
    const watch = setInterval(() => descendants(launcher.child.pid!).forEach((pid) => children.add(pid)), 50);
    await launcher.waitFor(moment);
    launcher.child.kill('SIGTERM');
    const exit = await launcher.exited;
    clearInterval(watch);
    expect(exit).toEqual({ code: 0, signal: null });
    expect([...children].filter(alive)).toEqual([]);
    expect(launcher.output()).not.toMatch(/oauth:migrate/);
  });

  it('cleans up after a launcher that was killed with SIGKILL', async () => {
    const first = await launch();
    await first.launcher.waitFor(LISTENING);
    const orphans = descendants(first.launcher.child.pid!);
    first.launcher.child.kill('SIGKILL');
    await first.launcher.exited;
    try {
      expect(orphans.filter(alive).length).toBeGreaterThan(7);
      const { PORT, GRPC_PORT_BASE, METRICS_PORT_BASE } = first.env;
      const second = await launch({ PORT, GRPC_PORT_BASE, METRICS_PORT_BASE }, false);
      await second.launcher.waitFor(LISTENING);
      expect(second.launcher.output()).toMatch(/stopping postgres \(pid \d+\) left over from an earlier run/);
      expect(second.launcher.output()).toMatch(/stopping oauth \(pid \d+\) left over from an earlier run/);
      expect(orphans.filter(alive)).toEqual([]);
      await stopAndCheckNothingLeft(second.launcher, [Number(PORT)]);
    } finally {
      for (const pid of orphans.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });

  it('runs OAUTH_REPLICAS oauth processes and restarts them one at a time on SIGUSR2', async () => {
    const grpcBase = await freePortBlock(7);
    const { launcher, env } = await launch({
      OAUTH_REPLICAS: '2',
      AUTHZ_REPLICA_SETTLE: '0.2',
      GRPC_PORT_BASE: String(grpcBase),
      METRICS_PORT_BASE: String(await freePortBlock(7)),
    });
    await launcher.waitFor(LISTENING);
    const replicaPorts = [grpcBase + 2, grpcBase + 7];
    for (const caller of ['gateway', 'consent-ui']) {
      const seen = JSON.parse(await readFile(join(logDir, `env-${caller}.json`), 'utf8')) as Record<
        string,
        string
      >;
      expect(seen.OAUTH_GRPC_URL).toBe(`ipv4:127.0.0.1:${grpcBase + 2},127.0.0.1:${grpcBase + 7}`);
    }
    for (const port of replicaPorts) expect(await isPortFree(port)).toBe(false);
    expect(launcher.output()).toMatch(/oauth-2\s+\| INFO oauth listening/);
    const before = descendants(launcher.child.pid!);

    launcher.child.kill('SIGUSR2');
    await launcher.waitFor(/local\s+\| oauth replicas restarted\n/);
    // One at a time, each back before the next one stops.
    const steps = [
      ...launcher.output().matchAll(/local\s+\| (restarting oauth(?:-2)?|oauth(?:-2)? restarted)\n/g),
    ].map((match) => match[1]);
    expect(steps).toEqual(['restarting oauth', 'oauth restarted', 'restarting oauth-2', 'oauth-2 restarted']);
    // Each old replica was asked to stop (the stubs record SIGTERM) and new ones listen.
    const stopped = (await readFile(join(logDir, 'stopped.log'), 'utf8')).trim().split('\n');
    expect(stopped.filter((entry) => entry.includes(join('apps', 'oauth')))).toHaveLength(2);
    for (const port of replicaPorts) expect(await isPortFree(port)).toBe(false);
    expect(launcher.child.exitCode).toBeNull();
    expect(launcher.output()).not.toMatch(/unexpectedly/);
    expect((await fetch(`http://127.0.0.1:${env.PORT}/health`)).status).toBe(200);
    expect(
      descendants(launcher.child.pid!).filter((pid) => !before.includes(pid)).length,
    ).toBeGreaterThanOrEqual(2);

    await stopAndCheckNothingLeft(launcher, [Number(env.PORT), ...replicaPorts]);
  });

  it('says what to build when the apps are not built', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'authz-empty-repo-'));
    await mkdir(join(empty, 'apps'));
    const { launcher } = await launch({ AUTHZ_ROOT_DIR: empty });
    expect(await launcher.exited).toEqual({ code: 1, signal: null });
    expect(launcher.output()).toMatch(/not built: apps\/identity\/dist\/migrate\.js, .*Build first/);
    await rm(empty, { recursive: true, force: true });
  });
});
