import { SmtpSink } from '@authz/shared/smtp-sink';
import { useTestEnvironment, type TestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { startSuite, type Suite, type SuiteOptions } from './suite.js';

export interface SuiteContext {
  /** Valid inside tests (after this file's beforeAll). */
  readonly suite: Suite;
  /** The SMTP sink the mailer-worker delivers to, when asked for. */
  readonly smtp: SmtpSink;
  /** This file's own database, for looking at what the services stored. */
  readonly databaseUrl: string;
  /** This file's database, Redis and key prefix. */
  readonly environment: TestEnvironment;
  /** An absolute URL of the gateway. */
  url(path: string): string;
}

export interface UseSuiteOptions extends Omit<
  SuiteOptions,
  'databaseUrl' | 'redisUrl' | 'redisKeyPrefix' | 'smtpUrl'
> {
  /** Run the mailer-worker against a real SMTP sink. */
  smtp?: boolean;
}

/**
 * Call once at the top of a test file: its own database and Redis prefix, the whole suite
 * started before the tests and closed after them.
 */
export function useSuite(options: UseSuiteOptions = {}): SuiteContext {
  const environment = useTestEnvironment();
  let suite: Suite | undefined;
  let smtp: SmtpSink | undefined;
  const { smtp: withSmtp, ...suiteOptions } = options;

  beforeAll(async () => {
    if (withSmtp) smtp = await SmtpSink.start({ closeTimeoutMs: 100 });
    suite = await startSuite({
      ...suiteOptions,
      databaseUrl: environment.databaseUrl,
      redisUrl: environment.redisUrl,
      redisKeyPrefix: environment.redisPrefix,
      ...(smtp ? { smtpUrl: smtp.url } : {}),
    });
  });

  afterAll(async () => {
    await suite?.close();
    await smtp?.stop();
  });

  return {
    get suite() {
      if (!suite) throw new Error('useSuite(): the suite exists only once beforeAll has run');
      return suite;
    },
    get smtp() {
      if (!smtp) throw new Error('useSuite(): pass { smtp: true } for a mail sink');
      return smtp;
    },
    get databaseUrl() {
      return environment.databaseUrl;
    },
    environment,
    url: (path) => `${suite?.baseUrl ?? ''}${path}`,
  };
}
