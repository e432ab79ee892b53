import { describe, expect, it } from 'vitest';
import { mailJobOptions, mailQueuePrefix, verificationEmailJobSchema } from './queue-contract.js';

// The contract of docs/mail.md "Queue contract", as identity adds jobs and mailer-worker reads them.
const token = 'ab'.repeat(32);

describe('mail queue contract', () => {
  it('namespaces BullMQ keys under REDIS_KEY_PREFIX', () => {
    expect(mailQueuePrefix('')).toBe('bull');
    expect(mailQueuePrefix('test:1a2b:')).toBe('test:1a2b:bull');
  });

  it('accepts the producer data and rejects anything else', () => {
    const valid = {
      to: 'alice@example.com',
      verifyUrl: `http://localhost:3000/ui/verify-email?token=${token}`,
    };
    expect(verificationEmailJobSchema.parse(valid)).toEqual(valid);
    for (const data of [
      {},
      { ...valid, to: 'alice@example.com\r\nBcc: mallory@example.com' },
      { ...valid, to: 'not-an-address' },
      { ...valid, to: `${'a'.repeat(245)}@example.com` },
      { ...valid, verifyUrl: 'javascript:alert(1)' },
      { ...valid, verifyUrl: '/auth/verify?token=x' },
      { ...valid, verifyUrl: `https://id.example.com/${'a'.repeat(2048)}` },
      { ...valid, verifyUrl: 42 },
    ]) {
      expect(verificationEmailJobSchema.safeParse(data).success).toBe(false);
    }
  });

  it('adds each job under its outbox row id, with the worker’s retry strategy', () => {
    expect(mailJobOptions('row-1')).toEqual({
      jobId: 'row-1',
      attempts: 100,
      backoff: { type: 'capped-exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 5000,
    });
  });
});
