import { InvalidClientError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { parseBasicCredentials } from './basic-credentials.js';

const basic = (value: string) => `Basic ${Buffer.from(value, 'utf8').toString('base64')}`;

describe('client_secret_basic (RFC 6749 section 2.3.1)', () => {
  it('form-urlencoded-decodes both parts after Base64 decoding', () => {
    expect(parseBasicCredentials(basic('my%3Aclient:p%40ss+word%2B'))).toEqual({
      clientId: 'my:client',
      clientSecret: 'p@ss word+',
    });
  });

  it('splits at the first colon and ignores other schemes', () => {
    expect(parseBasicCredentials(basic('client:se:cret'))).toEqual({
      clientId: 'client',
      clientSecret: 'se:cret',
    });
    expect(parseBasicCredentials(undefined)).toBeUndefined();
    expect(parseBasicCredentials('Bearer abc')).toBeUndefined();
  });

  it('treats a malformed header as a failed client authentication', () => {
    expect(() => parseBasicCredentials('Basic !!!')).toThrow(InvalidClientError);
    expect(() => parseBasicCredentials(basic('no-colon'))).toThrow(InvalidClientError);
    expect(() => parseBasicCredentials(basic('bad%zzescape:x'))).toThrow(InvalidClientError);
  });
});
