import { describe, expect, it, vi } from 'vitest';
import {
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  UpstreamTimeoutError,
} from '../errors/index.js';
import { findBrowserSession, requireBrowserSession, sessionTokenOf } from './browser-session.js';

const TOKEN = 'ab'.repeat(32);
const SESSION = { sessionId: 's-1', csrfToken: 'c'.repeat(64) };

describe('sessionTokenOf', () => {
  it('reads __Host-service_session and counts an empty value as none', () => {
    expect(sessionTokenOf({ '__Host-service_session': TOKEN, other: 'x' })).toBe(TOKEN);
    expect(sessionTokenOf({ '__Host-service_session': '' })).toBeUndefined();
    expect(sessionTokenOf({ other: 'x' })).toBeUndefined();
  });
});

describe('findBrowserSession', () => {
  it('answers what identity answers for the cookie value', async () => {
    const lookup = vi.fn(async () => SESSION);
    expect(await findBrowserSession(TOKEN, lookup)).toBe(SESSION);
    expect(lookup).toHaveBeenCalledWith(TOKEN);
  });

  it('is undefined without a cookie value, and asks nobody', async () => {
    const lookup = vi.fn(async () => SESSION);
    expect(await findBrowserSession(undefined, lookup)).toBeUndefined();
    expect(await findBrowserSession('', lookup)).toBeUndefined();
    expect(lookup).not.toHaveBeenCalled();
  });

  it('is undefined when identity refuses the value (docs/identity.md #11)', async () => {
    const lookup = async () => Promise.reject(new UnauthorizedError());
    expect(await findBrowserSession(TOKEN, lookup)).toBeUndefined();
  });

  it.each([
    ['identity unreachable', new ServiceUnavailableError()],
    ['a deadline', new UpstreamTimeoutError()],
    ['any other refusal', new NotFoundError()],
    ['a bug', new TypeError('boom')],
  ])('rethrows %s: an outage is not a signed-out browser', async (_case, failure) => {
    await expect(findBrowserSession(TOKEN, () => Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe('requireBrowserSession', () => {
  it('answers the session', async () => {
    expect(await requireBrowserSession(TOKEN, async () => SESSION)).toBe(SESSION);
  });

  it('is UnauthorizedError without a cookie value or with one identity refuses', async () => {
    await expect(requireBrowserSession(undefined, async () => SESSION)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const refused = () => Promise.reject(new UnauthorizedError());
    await expect(requireBrowserSession(TOKEN, refused)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('rethrows anything else as it came', async () => {
    const outage = new ServiceUnavailableError();
    await expect(requireBrowserSession(TOKEN, () => Promise.reject(outage))).rejects.toBe(outage);
  });
});
