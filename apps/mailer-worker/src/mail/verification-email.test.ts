import { describe, expect, it } from 'vitest';
import { mailQueuePrefix, verificationEmailJobSchema } from './mail-queue.js';
import { maskEmail } from './mask-email.js';
import { renderVerificationEmail } from './verification-email.js';

const token = 'ab'.repeat(32);

describe('verification email', () => {
  it('carries the link verbatim in text and escaped in HTML', () => {
    const verifyUrl = `https://id.example.com/auth/verify?token=${token}&next=<"x">`;
    const mail = renderVerificationEmail({ to: 'alice@example.com', verifyUrl });
    expect(mail.subject).toBe('Verify your email address');
    expect(mail.text.split('\n')).toContain(verifyUrl);
    const escaped = `https://id.example.com/auth/verify?token=${token}&amp;next=&lt;&quot;x&quot;&gt;`;
    expect(mail.html).toContain(`<a href="${escaped}">${escaped}</a>`);
    expect(mail.html).not.toContain(verifyUrl);
  });
});

describe('mail queue contract', () => {
  it('namespaces BullMQ keys under REDIS_KEY_PREFIX', () => {
    expect(mailQueuePrefix('')).toBe('bull');
    expect(mailQueuePrefix('test:1a2b:')).toBe('test:1a2b:bull');
  });

  it('accepts the producer data and rejects anything else', () => {
    const valid = { to: 'alice@example.com', verifyUrl: `http://localhost:3000/auth/verify?token=${token}` };
    expect(verificationEmailJobSchema.parse(valid)).toEqual(valid);
    for (const data of [
      {},
      { ...valid, to: 'alice@example.com\r\nBcc: mallory@example.com' },
      { ...valid, to: 'not-an-address' },
      { ...valid, verifyUrl: 'javascript:alert(1)' },
      { ...valid, verifyUrl: '/auth/verify?token=x' },
      { ...valid, verifyUrl: 42 },
    ]) {
      expect(verificationEmailJobSchema.safeParse(data).success).toBe(false);
    }
  });
});

describe('helpers', () => {
  it('masks recipients for logs', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
    expect(maskEmail('nonsense')).toBe('***');
  });
});
