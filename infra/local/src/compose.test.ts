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
import { ENV_LOADERS, rejectedVariables } from './test/app-env.js';
import { APPS, CALL_GRAPH, SECRET_VARIABLES } from './test/call-graph.js';
import { composeCommand, composeConfig } from './test/compose-cli.js';
import { PACKAGE_DIR } from './test/launcher.js';

/** docker-compose.yml as Compose itself reads it: interpolated, merged, validated. */
interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | null>;
  depends_on?: Record<string, { condition: string }>;
  ports?: ({ published: number | string; target: number | string; host_ip?: string } | string)[];
  healthcheck?: { test: string[] };
  read_only?: boolean;
  cap_drop?: string[];
  security_opt?: string[];
  tmpfs?: string[] | string;
  user?: string;
}

const root = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;
const file = join(root, 'docker-compose.yml');
const secrets = {
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SECRET_HASH_KEY: randomBytes(32).toString('hex'),
};
const BACKENDS = ['postgres', 'redis', 'mailpit'];

/** Compose v1 prints `127.0.0.1:8025:8025/tcp` for ports with a host address, v2 the long form. */
function publishedPorts(service: ComposeService): { hostIp?: string; published: number; target: number }[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port !== 'string')
      return { hostIp: port.host_ip, published: Number(port.published), target: Number(port.target) };
    const [target, published, hostIp] = port
      .replace(/\/tcp$/, '')
      .split(':')
      .reverse();
    return { hostIp, published: Number(published), target: Number(target) };
  });
}

function environmentOf(service: ComposeService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [
      key,
      value === null ? '' : String(value),
    ]),
  );
}

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

  it('runs every app from the one image built by the Dockerfile, by its own entry', () => {
    expect(Object.keys(services).sort()).toEqual([...APPS, ...BACKENDS, 'migrate'].sort());
    for (const app of [...APPS, 'migrate']) {
      expect(services[app]!.image, app).toBe('authz-server:local');
      expect(services[app]!.build, app).toMatchObject({ context: root });
    }
    for (const app of APPS) expect(commandLine(services[app]!), app).toBe(`node apps/${app}/dist/main.js`);
  });

  it('checks the health of every long-running service', () => {
    for (const name of [...APPS, ...BACKENDS])
      expect(services[name]!.healthcheck?.test?.[0], name).toMatch(/^CMD(-SHELL)?$/);
  });

  it('runs the migrations once the database is healthy, and the data services once they succeeded', () => {
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    const entries = [
      ...commandLine(services.migrate!).matchAll(/node (apps\/[\w-]+\/dist\/migrate\.js)/g),
    ].map((m) => m[1]);
    expect(entries).toEqual(DATA_OWNING_SERVICES.map(({ name }) => `apps/${name}/dist/migrate.js`));
    for (const { name } of DATA_OWNING_SERVICES) {
      expect(services[name]!.depends_on, name).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('starts the gateway once every service it calls is healthy, and the worker once Redis and the sink are', () => {
    const gateway = services.gateway!.depends_on!;
    for (const callee of CALL_GRAPH.gateway!)
      expect(gateway[callee], callee).toEqual({ condition: 'service_healthy' });
    expect(services['mailer-worker']!.depends_on).toEqual({
      redis: { condition: 'service_healthy' },
      mailpit: { condition: 'service_healthy' },
    });
  });

  it('publishes the gateway on 3000 on every interface, and the mail UI on this machine only', () => {
    expect(publishedPorts(services.gateway!)).toEqual([{ hostIp: undefined, published: 3000, target: 3000 }]);
    expect(services.gateway!.environment).toMatchObject({ HOST: '0.0.0.0' });
    expect(services.mailpit!.image).toMatch(/^axllent\/mailpit:v\d+\.\d+/);
    expect(publishedPorts(services.mailpit!)).toEqual([
      { hostIp: '127.0.0.1', published: 8025, target: 8025 },
    ]);
    expect(environmentOf(services['mailer-worker']!).SMTP_URL).toBe('smtp://mailpit:1025');
    for (const name of [...APPS, 'migrate', 'postgres', 'redis'])
      expect(publishedPorts(services[name]!).length, name).toBe(name === 'gateway' ? 1 : 0);
  });

  it('runs every app read-only, without capabilities or privilege escalation', () => {
    for (const app of [...APPS, 'migrate']) {
      const service = services[app]!;
      expect(service.read_only, app).toBe(true);
      expect(service.cap_drop, app).toEqual(['ALL']);
      expect(service.security_opt, app).toEqual(['no-new-privileges:true']);
      expect([service.tmpfs].flat(), app).toEqual(['/tmp']);
      expect(service.user, app).toBeUndefined(); // the image's own non-root user (Dockerfile)
    }
  });

  it('reaches each gRPC service by name on its topology port, and checks the port it listens on', () => {
    for (const app of APPS) {
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

  it('gives each app an environment its own start-up validation accepts', () => {
    for (const app of APPS) expect(rejectedVariables(app, environmentOf(services[app]!)), app).toEqual([]);
    const migrate = Object.keys(environmentOf(services.migrate!)).sort();
    expect(migrate).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
  });

  it('hands each app exactly the secrets it reads', () => {
    for (const app of APPS) {
      const env = environmentOf(services[app]!);
      const given = SECRET_VARIABLES.filter((variable) => variable in env);
      const withoutSecrets = Object.fromEntries(Object.entries(env).filter(([key]) => !given.includes(key)));
      expect(rejectedVariables(app, withoutSecrets), app).toEqual(given);
    }
    expect(services.oauth!.environment!.KEY_ENCRYPTION_KEY).toBe(secrets.KEY_ENCRYPTION_KEY);
  });

  it('lets each app dial exactly the services of the call graph', () => {
    for (const app of APPS) {
      const urls = ENV_LOADERS[app]!(environmentOf(services[app]!)).services ?? {};
      expect(Object.keys(urls).sort(), app).toEqual([...CALL_GRAPH[app]!].sort());
      for (const [callee, url] of Object.entries(urls))
        expect(url, `${app} -> ${callee}`).toBe(`${callee}:${defaultGrpcPort(callee as ServiceName)}`);
    }
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
