import { expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// docs/decisions.md #29: mail is never lost; the worker retries with backoff until SMTP is back.
const context = useSuite({ smtp: true });

it('delivers a verification mail queued while the SMTP server was down once it is back', async () => {
  await context.smtp.stop();
  const email = `outage${Date.now()}@example.com`;
  const registered = await postJson(`${context.suite.baseUrl}/auth/register`, {
    email,
    password: 'amber-Falcon-river-31',
  });
  expect(registered.status).toBe(201);
  // Let the first delivery attempts fail against the closed port.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(context.smtp.received).toEqual([]);

  await context.smtp.start();
  const mail = await context.smtp.waitFor((message) => message.envelopeTo.includes(email), 30_000);
  expect(mail.links.some((link) => link.startsWith(`${context.suite.baseUrl}/ui/verify-email?token=`))).toBe(
    true,
  );
});
