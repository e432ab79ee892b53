import { TestSmtpSink, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postJson } from '../test/http.js';
import { startSuite, type Suite } from '../test/suite.js';

// DECISIONS.md #29: mail is never lost; the worker retries with backoff until SMTP is back.
const environment = useTestEnvironment();
let smtp: TestSmtpSink;
let suite: Suite;

beforeAll(async () => {
  smtp = await TestSmtpSink.start();
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    smtpUrl: smtp.url,
  });
});

afterAll(async () => {
  await suite?.close();
  await smtp?.stop();
});

it('delivers a verification mail queued while the SMTP server was down once it is back', async () => {
  await smtp.stop();
  const email = `outage${Date.now()}@example.com`;
  const registered = await postJson(`${suite.baseUrl}/auth/register`, {
    email,
    password: 'amber-Falcon-river-31',
  });
  expect(registered.status).toBe(201);
  // Let the first delivery attempts fail against the closed port.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(smtp.messages).toEqual([]);

  await smtp.start();
  const mail = await smtp.waitFor((message) => message.to.includes(email), 30_000);
  expect(mail.links.some((link) => link.startsWith(`${suite.baseUrl}/auth/verify?token=`))).toBe(true);
});
