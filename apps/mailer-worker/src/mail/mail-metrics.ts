import { Counter, type Registry } from 'prom-client';

/** Mail counters on the service's registry; registered at start so they export even at zero. */
export interface MailMetrics {
  /** Messages the SMTP server accepted, by kind (the job name). */
  sent: Counter<'kind'>;
  /** Failed attempts by kind and outcome: retry | exhausted (no attempts left) | rejected (bad job). */
  failed: Counter<'kind' | 'outcome'>;
  /** Jobs taken back from a worker that stopped renewing its lock (crash), to be sent again. */
  stalled: Counter;
}

export type MailFailureOutcome = 'retry' | 'exhausted' | 'rejected';

export function createMailMetrics(registry: Registry): MailMetrics {
  return {
    sent: new Counter({
      name: 'mail_sent_total',
      help: 'Mail accepted by the SMTP server, by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    failed: new Counter({
      name: 'mail_failed_total',
      help: 'Failed mail attempts by kind and outcome (retry, exhausted, rejected)',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    stalled: new Counter({
      name: 'mail_jobs_stalled_total',
      help: 'Mail jobs re-delivered after their worker stopped renewing the lock',
      registers: [registry],
    }),
  };
}
