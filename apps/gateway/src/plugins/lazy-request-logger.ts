import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilent, Logger } from 'pino';

type LogArguments = Parameters<FastifyBaseLogger['info']>;
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

/**
 * Fastify makes a child logger for every request, bound to its request id. Making one is not
 * free here: the redaction paths (packages/shared/src/logger) run every binding through the
 * redactor, about 4 µs a request, on requests that mostly never log a line below `info`
 * (`warn` and above in production tuning). This factory hands Fastify a stand-in that makes the
 * real child, same bindings and options, on the first line written at an enabled level; a line
 * below the level is dropped as pino would drop it (docs/performance.md #14).
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyRequestLogger(logger as unknown as Logger, bindings, options);

class LazyRequestLogger implements FastifyBaseLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): LevelWithSilent {
    return (this.real?.level ?? this.options.level ?? this.parent.level) as LevelWithSilent;
  }

  set level(level: LevelWithSilent) {
    this.materialize().level = level;
  }

  fatal(...args: LogArguments): void {
    this.write('fatal', args);
  }

  error(...args: LogArguments): void {
    this.write('error', args);
  }

  warn(...args: LogArguments): void {
    this.write('warn', args);
  }

  info(...args: LogArguments): void {
    this.write('info', args);
  }

  debug(...args: LogArguments): void {
    this.write('debug', args);
  }

  trace(...args: LogArguments): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.materialize().child(bindings, options) as unknown as FastifyBaseLogger;
  }

  private write(level: Level, args: LogArguments): void {
    if (this.real === undefined && !this.enabled(level)) return;
    (this.materialize()[level] as (...line: LogArguments) => void)(...args);
  }

  private enabled(level: Level): boolean {
    const values = this.parent.levels.values;
    return values[level]! >= values[this.level]!;
  }

  private materialize(): Logger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }
}
