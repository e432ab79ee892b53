import { describe, expect, it } from 'vitest';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import {
  enterUserCode,
  newDeviceClient,
  pollDevice,
  startDevice,
  WRONG_USER_CODE_MESSAGE,
} from './device-scene.js';

// RFC 8628 section 3.5: once the codes expire the device is told expired_token, and the page
// takes the user code no more. DEVICE_CODE_TTL shortens the 600 seconds for this file.
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' }, { DEVICE_CODE_TTL: '1' });

const expired = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an expired device authorization', () => {
  it('answers expired_token to the device and the wrong-code message to the user', async () => {
    await newUser(flow);
    const client = await newDeviceClient(flow);
    const started = await startDevice(flow, client);
    expect(started.expires_in).toBe(1);
    await expired(1100);
    const answer = await pollDevice(flow, client, started.device_code);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: 'expired_token',
        error_description: 'The device code has expired',
        code: 'EXPIRED_TOKEN',
        statusCode: 400,
      },
    });
    const page = await enterUserCode(flow, new FormBrowser(), started.user_code);
    expect(page.status).toBe(400);
    expect(page.text).toContain(WRONG_USER_CODE_MESSAGE);
  });
});
