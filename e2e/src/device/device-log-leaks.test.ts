import { Writable } from 'node:stream';
import { createLogger } from '@authz/shared/logger';
import { describe, expect, it } from 'vitest';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { decideOnPages, enterUserCode, newDeviceClient, pollDevice, startDevice } from './device-scene.js';

// docs/conventions.md #10 and docs/device-grant.md #3: through a whole device flow, failures
// included, with every service logging at its most verbose, no device code, user code or token
// appears in a single line.
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const flow = useCodeFlow(
  { DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' },
  {},
  { logger: createLogger({ service: 'test', level: 'trace', destination: sink }) },
);

describe('logs of the device flow', () => {
  it('carry neither code nor token', async () => {
    const client = await newDeviceClient(flow);
    const user = await newUser(flow);
    const { device_code, user_code } = await startDevice(flow, client, 'openid email offline_access');
    const browser = new FormBrowser();
    await enterUserCode(flow, browser, 'ZZZZ-ZZZZ');
    await pollDevice(flow, client, device_code);
    await pollDevice(flow, client, device_code);
    await decideOnPages(flow, browser, user, user_code, 'allow');
    const tokens = await pollDevice(flow, client, device_code);
    expect(tokens.status).toBe(200);
    await pollDevice(flow, client, device_code);

    const secrets = [
      device_code,
      user_code,
      user_code.replace('-', ''),
      'ZZZZ-ZZZZ',
      tokens.body.access_token as string,
      tokens.body.refresh_token as string,
      tokens.body.id_token as string,
    ];
    expect(lines.length).toBeGreaterThan(50);
    const leaks = lines.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
