import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DATA_OWNING_SERVICES,
  defaultGrpcPort,
  defaultMetricsPort,
  SERVICES,
  type ServiceName,
} from '@authz/shared/topology';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkUpTo } from './paths.js';
import { GRPC_SERVICES } from './service-env.js';
import { composeCommand, composeConfig } from './test/compose-cli.js';
import { PACKAGE_DIR } from './test/launcher.js';

/** docker-compose.yml as Compose itself reads it: interpolated, merged, validated. */
interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | null>;
  depends_on?: Record<string, { condition: string }>;
  ports?: { published: number | string; target: number | string }[];
  healthcheck?: { test: string[] };
  user?: string;
}

const root = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;
const file = join(root, 'docker-compose.yml');
const secrets = {
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SECRET_HASH_KEY: randomBytes(32).toString('hex'),
};
const apps: string[] = [...SERVICES.map((service) => service.name), 'gateway'];

describe('docker-compose.yml', () => {
  const command = composeCommand();
  let scratch: string;
  let emptyEnv: string;
  let services: Record<string, ComposeService>;

  beforeAll(async () => {
    // Not a skip: CI must have it (apt-get install docker-compose), or this check means nothing.
    if (!command)
      throw new Error('docker-compose (or `docker compose`) is required: apt-get install -y docker-compose');
    scratch = await mkdtemp(join(tmpdir(), 'authz-compose-'));
    emptyEnv = join(scratch, 'empty.env');
    await writeFile(emptyEnv, '');
    const result = composeConfig(command, file, secrets, emptyEnv);
    if (result.status !== 0)
      throw new Error(`docker-compose config rejected docker-compose.yml:\n${result.stderr}`);
    services = (parse(result.stdout) as { services: Record<string, ComposeService> }).services;
  });
  afterAll(async () => scratch && rm(scratch, { recursive: true, force: true }));

  const commandLine = (service: ComposeService) =>
    Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');

  it('runs every app from the one image, by its own entry', () => {
    expect(Object.keys(services).sort()).toEqual([...apps, 'mailpit', 'migrate', 'postgres', 'redis'].sort());
    for (const app of apps) {
      expect(services[app]!.image, app).toBe(services.migrate!.image);
      expect(commandLine(services[app]!), app).toBe(`node apps/${app}/dist/main.js`);
      expect(services[app]!.healthcheck?.test, app).toBeDefined();
    }
  });

  it('makes every data service wait for the migrations, which run every migration entry', () => {
    for (const { name } of DATA_OWNING_SERVICES) {
      expect(services[name]!.depends_on?.migrate, name).toEqual({
        condition: 'service_completed_successfully',
      });
    }
    const entries = [
      ...commandLine(services.migrate!).matchAll(/node (apps\/[\w-]+\/dist\/migrate\.js)/g),
    ].map((m) => m[1]);
    expect(entries).toEqual(DATA_OWNING_SERVICES.map(({ name }) => `apps/${name}/dist/migrate.js`));
    expect(services.migrate!.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('publishes the gateway on 3000, listening on every interface', () => {
    const ports = services.gateway!.ports!.map((port) => [Number(port.published), Number(port.target)]);
    expect(ports).toEqual([[3000, 3000]]);
    expect(services.gateway!.environment).toMatchObject({ HOST: '0.0.0.0' });
  });

  it('reaches each gRPC service by name on its topology port, and checks the port it listens on', () => {
    for (const app of apps) {
      const env = services[app]!.environment ?? {};
      expect(env.GRPC_HOST, app).toBe('0.0.0.0');
      for (const name of GRPC_SERVICES) {
        const prefix = SERVICES.find((service) => service.name === name)!.envPrefix;
        expect(env[`${prefix}_GRPC_URL`], `${app}: ${prefix}_GRPC_URL`).toBe(
          `${name}:${defaultGrpcPort(name)}`,
        );
      }
    }
    for (const { name } of SERVICES) {
      const port = GRPC_SERVICES.includes(name)
        ? defaultGrpcPort(name)
        : defaultMetricsPort(name as ServiceName);
      expect(services[name]!.healthcheck!.test.join(' '), name).toContain(`${port}`);
    }
  });

  it('hands the keys and the database only to the services that own data', () => {
    for (const app of apps) {
      const owns = DATA_OWNING_SERVICES.some((service) => service.name === app);
      const env = services[app]!.environment ?? {};
      expect('KEY_ENCRYPTION_KEY' in env && 'SECRET_HASH_KEY' in env && 'DATABASE_URL' in env, app).toBe(
        owns,
      );
    }
    expect(services.identity!.environment!.KEY_ENCRYPTION_KEY).toBe(secrets.KEY_ENCRYPTION_KEY);
  });

  it('refuses to start without KEY_ENCRYPTION_KEY and SECRET_HASH_KEY', () => {
    const result = composeConfig(command!, file, {}, emptyEnv);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/KEY_ENCRYPTION_KEY|SECRET_HASH_KEY/);
  });

  it('fails on an invalid file (the check above is a real validation)', async () => {
    const broken = join(scratch, 'docker-compose.yml');
    const text = await readFile(file, 'utf8');
    await writeFile(broken, text.replace('  gateway:\n', '  gateway:\n    no_such_option: true\n'));
    expect(composeConfig(command!, broken, secrets, emptyEnv).status).not.toBe(0);
  });
});
