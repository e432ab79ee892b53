import { z } from 'zod';

/** Booleans accept true/false/1/0 (docs/contract.md). */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'expected true, false, 1 or 0' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

export const envPort = () => z.coerce.number().int().min(0).max(65535);

export const envPositiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const envLogLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const envUrl = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    `expected a ${protocols.join(' or ')} URL`,
  );

export const envDatabaseUrl = () => envUrl(['postgres', 'postgresql']);
export const envRedisUrl = () => envUrl(['redis', 'rediss']);

/** KEY_ENCRYPTION_KEY / SECRET_HASH_KEY: 32 random bytes written as 64 hex characters. */
export const envHexKey32 = () =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex characters (32 random bytes)')
    .transform((value) => Buffer.from(value, 'hex'));

/** An issuer / public base URL: absolute http(s), no trailing slash, query or fragment. */
export const envIssuer = () =>
  envUrl(['http', 'https']).refine(
    (value) => !value.endsWith('/') && !value.includes('?') && !value.includes('#'),
    'expected an absolute URL without trailing slash, query or fragment',
  );

/** DEFAULT_REALM_ALLOWED_SCOPES' default (docs/contract.md), read by identity and clients alike. */
export const DEFAULT_REALM_ALLOWED_SCOPES = 'openid profile email offline_access';

/** A space-separated scope list (RFC 6749 section 3.3) as an array of scope tokens. */
export const envScopeList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) => value.split(/\s+/).filter(Boolean));
