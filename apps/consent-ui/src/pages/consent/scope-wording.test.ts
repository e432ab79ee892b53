import { describe, expect, it } from 'vitest';
import { describeScope } from './scope-wording.js';

describe('describeScope', () => {
  it('names the OpenID and offline scopes in plain words', () => {
    expect(describeScope('openid')).toBe('Confirm your identity');
    expect(describeScope('profile', { name: 'Ada Lovelace' })).toBe('Your name');
    expect(describeScope('email')).toBe('Your email address');
    expect(describeScope('offline_access')).toBe('Stay signed in and keep access while you are away');
  });

  it('promises a name only to a user who has set one', () => {
    expect(describeScope('profile')).toBe('Your profile (you have not set a name)');
    expect(describeScope('profile', {})).toBe('Your profile (you have not set a name)');
    expect(describeScope('email', {})).toBe('Your email address');
  });

  it('shows any other scope verbatim', () => {
    expect(describeScope('calendar:read')).toBe('calendar:read');
    expect(describeScope('EMAIL')).toBe('EMAIL');
    expect(describeScope('<b>x</b>')).toBe('<b>x</b>');
  });

  it('is not fooled by names of Object.prototype', () => {
    expect(describeScope('constructor')).toBe('constructor');
    expect(describeScope('__proto__')).toBe('__proto__');
    expect(describeScope('toString')).toBe('toString');
  });
});
