import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// docs/security.md #12 finding 10: a mail scanner that fetches every link of a message must not
// verify the address. The mailed link opens a page whose GET changes nothing (interface.md 4.10: of the
// interface extensions); only the page's Confirm button (a POST with CSRF) verifies.
const context = useSuite({ smtp: true });
const password = 'violet-Lantern-harbor-93';
let sequence = 0;
const newEmail = () => `prefetch${Date.now()}-${(sequence += 1)}@example.com`;

async function emailVerifiedClaim(email: string): Promise<unknown> {
  const login = await postJson<{ access_token: string }>(context.url('/auth/login'), { email, password });
  expect(login.status).toBe(200);
  return decodeJwt(login.body.access_token).email_verified;
}

describe('a prefetched verification link (finding 10)', () => {
  it('GET of the mailed link, followed as a scanner would, verifies nothing', async () => {
    const email = newEmail();
    expect((await postJson(context.url('/auth/register'), { email, password })).status).toBe(201);
    const mail = await context.smtp.waitFor((message) => message.envelopeTo.includes(email));
    expect(mail.links).toHaveLength(1);
    const link = mail.links[0]!;
    // Twice, with redirects followed and a HEAD too: what link scanners do.
    for (const method of ['GET', 'HEAD', 'GET']) {
      const response = await fetch(link, { method, redirect: 'follow' });
      await response.arrayBuffer();
    }
    expect(await emailVerifiedClaim(email)).toBe(false);
  });
});
