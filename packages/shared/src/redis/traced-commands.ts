import { SpanStatusCode } from '@opentelemetry/api';
import type { Command, Redis } from 'ioredis';
import { startClientSpan, tracedServiceName } from '../telemetry/spans/index.js';

/**
 * Gives every command `client` sends inside a traced call a CLIENT span,
 * `<service>.redis.<command>`. Attributes name the command only: keys and values hold token
 * ids, hashed handles and counters' subjects. A command that passes through sendCommand again
 * (ioredis resends after a reconnect) keeps its one span.
 */
export function traceCommands(client: Redis): Redis {
  const sendCommand = client.sendCommand.bind(client);
  const traced = new WeakSet<Command>();
  client.sendCommand = (command, stream) => {
    if (traced.has(command) || !tracedServiceName()) return sendCommand(command, stream);
    traced.add(command);
    const span = startClientSpan(`redis.${command.name.toLowerCase()}`, {
      'db.system.name': 'redis',
      'db.operation.name': command.name.toUpperCase(),
    });
    const sent = sendCommand(command, stream);
    // Ended from the command's own promise: callers such as pipelines ignore what sendCommand
    // returns, so a promise derived here must never reject.
    command.promise.then(
      () => span?.end(),
      (error: unknown) => {
        span?.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.name : 'Error',
        });
        span?.end();
      },
    );
    return sent;
  };
  return client;
}
