import { describe, expect, it } from 'vitest';
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

describe('helpers', () => {
  it('masks recipients for logs', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
    expect(maskEmail('nonsense')).toBe('***');
  });
});
