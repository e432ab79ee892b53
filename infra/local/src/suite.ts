import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATA_OWNING_SERVICES, SERVICES } from '@authz/shared/topology';
import { startBackends, type StartedBackend } from './backends.js';
import { reachableHost, type LauncherConfig } from './config.js';
import { stopLeftovers } from './leftovers.js';
import { acquireLock } from './lock.js';
import { say, type LineSink } from './log.js';
import { appEntry } from './paths.js';
import { canConnect, waitUntil } from './ports.js';
import { checkAppEntries, checkPortsFree } from './preflight.js';
import { describeExit, ManagedProcess, type ExitStatus } from './processes.js';
import { loadSecrets, SERVICE_SECRETS, type Secrets } from './secrets.js';
import {
  childEnvironment,
  GRPC_SERVICES,
  oauthReplicaEnvironment,
  oauthReplicaPorts,
  servicePorts,
} from './service-env.js';

/**
 * The whole suite on one machine, in dependency order: backends, migrations, services, then
 * the gateway; stopped in the reverse order. A child that exits on its own is a crash: the
 * caller learns it from `crashed` and stops everything.
 */
export class Suite {
  readonly crashed: Promise<string>;
  private crashReason: string | undefined;
  private readonly crash = new AbortController();
  private reportCrash!: (reason: string) => void;
  private readonly backends: StartedBackend[] = [];
  /** In start order; the gateway comes last. */
  private readonly processes: ManagedProcess[] = [];
  private migration: ManagedProcess | undefined;
  /** Children stopped on purpose (a replica restart): their exit is no crash. */
  private readonly retired = new Set<ManagedProcess>();
  /** Every service's environment, kept for replica restarts. */
  private serviceEnv: NodeJS.ProcessEnv | undefined;
  private rolling: Promise<void> | undefined;
  private readonly rollAborted = new AbortController();
  private releaseLock: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<boolean> | undefined;

  constructor(
    private readonly config: LauncherConfig,
    private readonly sink: LineSink = say,
  ) {
    this.crashed = new Promise((resolve) => (this.reportCrash = resolve));
  }

  get crashedWith(): string | undefined {
    return this.crashReason;
  }

  start(stopRequested: AbortSignal): Promise<void> {
    return (this.starting ??= this.run(AbortSignal.any([stopRequested, this.crash.signal])));
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { config } = this;
    checkAppEntries(config);
    const runDir = join(config.dataDir, 'run');
    await mkdir(runDir, { recursive: true });
    this.releaseLock = await acquireLock(join(config.dataDir, 'launcher.pid'));
    await stopLeftovers(runDir, (line) => this.say(line));
    await checkPortsFree(config);
    const secrets = await loadSecrets(join(config.dataDir, 'secrets.json'));
    this.reportSecrets(secrets);
    const urls = await startBackends(config, secrets, this.sink, (backend) => this.adopt(backend));
    signal.throwIfAborted();
    const env = childEnvironment(config, {
      ...urls,
      keyEncryptionKey: secrets.values.KEY_ENCRYPTION_KEY,
      secretHashKey: secrets.values.SECRET_HASH_KEY,
    });
    await this.migrate(env, signal);
    await this.startServices(env, signal);
    await this.startGateway(env, signal);
  }

  /** Idempotent; true when every child exited 0 on its own within the grace period. */
  stop(): Promise<boolean> {
    return (this.stopping ??= this.stopAll());
  }

  /** Second Ctrl-C: no more waiting. */
  kill(): void {
    for (const child of [...this.processes, ...(this.migration ? [this.migration] : [])]) child.kill();
    for (const backend of this.backends) backend.process?.kill();
  }

  private async migrate(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
    // In sequence: each takes the same advisory lock anyway (docs/prisma.md), and logs stay readable.
    for (const { name } of DATA_OWNING_SERVICES) {
      signal.throwIfAborted();
      this.migration = this.spawn(`${name}:migrate`, appEntry(this.config.root, name, 'migrate'), env);
      const status = await this.migration.exited;
      this.migration = undefined;
      signal.throwIfAborted();
      if (status.code !== 0)
        throw new Error(`the ${name} migrations failed: migrate.js ${describeExit(status)}`);
    }
  }

  private async startServices(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
    this.serviceEnv = env;
    for (const { name } of SERVICES)
      this.supervise(this.spawn(name, appEntry(this.config.root, name, 'main'), env));
    const extraReplicas = this.oauthReplicas(env).slice(1);
    for (const replica of extraReplicas)
      this.supervise(this.spawn(replica.name, appEntry(this.config.root, 'oauth', 'main'), replica.env));
    // The gateway starts once its callees listen, so it does not begin with connection errors.
    const callees = [
      ...servicePorts(this.config).filter((service) => GRPC_SERVICES.includes(service.name)),
      ...extraReplicas,
    ];
    await Promise.all(callees.map((service) => this.untilListening(service.name, service.grpcPort, signal)));
  }

  private untilListening(name: string, grpcPort: number, signal: AbortSignal): Promise<void> {
    const host = reachableHost(this.config.grpcHost);
    return waitUntil(`${name} to listen on gRPC port ${grpcPort}`, () => canConnect(grpcPort, host), {
      timeoutMs: this.config.startTimeoutMs,
      signal,
    });
  }

  /**
   * Restarts the oauth replicas one at a time, as a Kubernetes rolling update does (`kill -USR2`
   * to the launcher, docs/operations.md): each one stops gracefully (it drains its calls; new
   * ones go to the others), starts again, listens, and gets AUTHZ_REPLICA_SETTLE for its
   * callers to reconnect before the next one stops. With two or more replicas no call fails.
   */
  restartOAuthReplicas(): Promise<void> {
    if (!this.serviceEnv) return Promise.reject(new Error('the suite has not started yet'));
    return (this.rolling ??= this.rollOAuthReplicas(this.serviceEnv).finally(
      () => (this.rolling = undefined),
    ));
  }

  /** Every oauth process: replica 1 is the suite's `oauth`, then `oauth-2`.. (service-env.ts). */
  private oauthReplicas(
    env: NodeJS.ProcessEnv,
  ): { name: string; env: NodeJS.ProcessEnv; grpcPort: number }[] {
    const first = servicePorts(this.config).find((service) => service.name === 'oauth')!;
    return [
      { name: 'oauth', env, grpcPort: first.grpcPort },
      ...oauthReplicaPorts(this.config).map((replica) => ({
        name: `oauth-${replica.replica}`,
        env: oauthReplicaEnvironment(env, replica),
        grpcPort: replica.grpcPort,
      })),
    ];
  }

  private async rollOAuthReplicas(env: NodeJS.ProcessEnv): Promise<void> {
    const signal = AbortSignal.any([this.rollAborted.signal, this.crash.signal]);
    for (const { name, env: replicaEnv, grpcPort } of this.oauthReplicas(env)) {
      const old = this.processes.find((child) => child.name === name);
      if (!old) continue;
      signal.throwIfAborted();
      this.say(`restarting ${name}`);
      this.retired.add(old);
      const status = await old.stop(this.config.stopGraceMs);
      if (status.code !== 0 || status.forced)
        this.say(`${name} did not stop cleanly: it ${describeExit(status)}`);
      signal.throwIfAborted();
      const fresh = this.spawn(name, appEntry(this.config.root, 'oauth', 'main'), replicaEnv);
      this.processes.splice(this.processes.indexOf(old), 1, fresh);
      void fresh.exited.then((exit) => this.unexpectedExit(fresh, exit));
      await this.untilListening(name, grpcPort, signal);
      await sleep(this.config.replicaSettleMs, undefined, { signal });
      this.say(`${name} restarted`);
    }
    this.say('oauth replicas restarted');
  }

  private async startGateway(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
    this.supervise(this.spawn('gateway', appEntry(this.config.root, 'gateway', 'main'), env));
    const url = `http://${reachableHost(this.config.host)}:${this.config.port}/health`;
    let last = 'no answer yet';
    const healthy = async () => {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
        last = `${response.status} ${await response.text()}`;
        return response.status === 200;
      } catch (error) {
        last = (error as Error).message;
        return false;
      }
    };
    try {
      await waitUntil(`GET ${url} to answer 200`, healthy, {
        timeoutMs: this.config.startTimeoutMs,
        intervalMs: 250,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(`${(error as Error).message}; last answer: ${last}`);
    }
  }

  private spawn(name: string, entry: string, env: NodeJS.ProcessEnv): ManagedProcess {
    return new ManagedProcess({
      name,
      command: process.execPath,
      args: [entry],
      cwd: this.config.root,
      env,
      sink: this.sink,
      pidFile: join(this.config.dataDir, 'run', `${name.replace(':', '-')}.pid.json`),
    });
  }

  private supervise(child: ManagedProcess): void {
    this.processes.push(child);
    void child.exited.then((status) => this.unexpectedExit(child, status));
  }

  private adopt(backend: StartedBackend): void {
    this.backends.push(backend);
    const server = backend.process;
    void server?.exited.then((status) => this.unexpectedExit(server, status, backend.name));
  }

  private unexpectedExit(child: ManagedProcess, status: ExitStatus, name = child.name): void {
    if (this.stopping || this.crashReason || this.retired.has(child)) return;
    this.crashReason = `${name} ${describeExit(status)} unexpectedly`;
    this.reportCrash(this.crashReason);
    this.crash.abort(new Error(this.crashReason));
  }

  private async stopAll(): Promise<boolean> {
    const grace = this.config.stopGraceMs;
    const results: [string, ExitStatus & { forced: boolean }][] = [];
    // Let an interrupted start settle first (every wait in it observes the abort), so nothing it
    // is still bringing up, e.g. PostgreSQL half-way through start-up, escapes the stop below.
    // An interrupted migration rolls back (one transaction each): not an unclean exit.
    await this.migration?.stop(grace);
    await this.starting?.catch(() => undefined);
    // A replica restart under way ends at its next step; what it started is in `processes`.
    this.rollAborted.abort();
    await this.rolling?.catch(() => undefined);
    // The gateway first, so no request arrives at a service that is shutting down.
    const gateway = this.processes.find((child) => child.name === 'gateway');
    if (gateway) results.push([gateway.name, await gateway.stop(grace)]);
    const others = this.processes.filter((child) => child !== gateway);
    results.push(
      ...(await Promise.all(
        others.map(
          async (child) =>
            [child.name, await child.stop(grace)] as [string, ExitStatus & { forced: boolean }],
        ),
      )),
    );
    const backendsClean = await Promise.all(
      this.backends.map((backend) => backend.stop().catch(() => false)),
    );
    await this.releaseLock?.();
    const unclean = results.filter(([, status]) => status.code !== 0 || status.forced);
    for (const [name, status] of unclean) {
      this.say(
        `${name} did not exit cleanly: it ${describeExit(status)}${status.forced ? ' (killed after the grace period)' : ''}`,
      );
    }
    return unclean.length === 0 && backendsClean.every(Boolean);
  }

  private reportSecrets(secrets: Secrets): void {
    for (const name of SERVICE_SECRETS) {
      const source = secrets.sources[name];
      if (source === 'generated')
        this.say(`generated ${name} into ${join(this.config.dataDir, 'secrets.json')}`);
      else if (source === 'environment') this.say(`${name} from the environment`);
    }
  }

  private say(line: string): void {
    this.sink('local', line);
  }
}
