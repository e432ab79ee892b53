import { expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { adminCall, newAdmin } from '../support/admin-scenes.js';

// docs/admin-api.md #12: one budget per admin over every admin route, whatever the address.
const context = useSuite({
  gatewayEnv: {
    LOGIN_RATE_LIMIT: '1000',
    REGISTER_RATE_LIMIT: '1000',
    ADMIN_RATE_LIMIT: '3',
    ADMIN_RATE_WINDOW: '60',
  },
});

it('limits each admin apart: the fourth call in the window is 429 with Retry-After', async () => {
  const first = await newAdmin(context.suite, context.databaseUrl);
  const second = await newAdmin(context.suite, context.databaseUrl);
  for (const path of ['/admin/users', '/admin/signing-keys', '/admin/audit-events']) {
    expect((await adminCall(context.suite, first, 'GET', path)).status).toBe(200);
  }
  const limited = await adminCall(context.suite, first, 'GET', '/admin/clients');
  expect({ status: limited.status, body: limited.body }).toEqual({
    status: 429,
    body: { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' },
  });
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  // Another admin, from the same address, has a budget of their own.
  expect((await adminCall(context.suite, second, 'GET', '/admin/clients')).status).toBe(200);
});
