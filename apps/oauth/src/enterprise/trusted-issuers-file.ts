import { readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import { z } from 'zod';

/** One entry of ENTERPRISE_TRUSTED_ISSUERS_FILE (docs/contract.md): an issuer and where its keys are. */
export type TrustedIssuer = { issuer: string; jwksUri: string } | { issuer: string; jwks: JSONWebKeySet };

/** The hosts the test-only loopback flag admits over plain http, as URL.hostname spells them. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Reads and checks the trusted-issuers file at start-up (docs/enterprise-assertions.md #8): a
 * JSON list of `{ issuer, jwks_uri }` or `{ issuer, jwks }`, issuers unique, https URLs (loopback
 * http only under CIMD_ALLOW_INSECURE_LOOPBACK, for tests), public asymmetric keys only. Throws
 * an Error whose message names the problem, never the file's content.
 */
export function readTrustedIssuersFile(path: string, allowInsecureLoopback: boolean): TrustedIssuer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  const parsed = fileSchema(allowInsecureLoopback).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return parsed.data.map((entry) =>
    entry.jwks_uri !== undefined
      ? { issuer: entry.issuer, jwksUri: entry.jwks_uri }
      : { issuer: entry.issuer, jwks: entry.jwks as JSONWebKeySet },
  );
}

function fileSchema(allowInsecureLoopback: boolean) {
  const url = z.string().refine((value) => isAcceptableUrl(value, allowInsecureLoopback), {
    message: allowInsecureLoopback
      ? 'must be an https URL (or http on a loopback host) without a fragment'
      : 'must be an https URL without a fragment',
  });
  // RFC 7517 section 4: public keys of an asymmetric type; a private or shared key has no place here.
  const publicKey = z
    .object({ kty: z.enum(['OKP', 'EC', 'RSA']) })
    .passthrough()
    .refine((key) => !('d' in key) && !('k' in key), { message: 'must be a public key' });
  const entry = z
    .object({
      issuer: url,
      jwks_uri: url.optional(),
      jwks: z
        .object({ keys: z.array(publicKey).min(1) })
        .passthrough()
        .optional(),
    })
    .strict()
    .refine((value) => (value.jwks_uri === undefined) !== (value.jwks === undefined), {
      message: 'give jwks_uri or jwks, exactly one',
    });
  return z
    .array(entry)
    .refine((entries) => new Set(entries.map(({ issuer }) => issuer)).size === entries.length, {
      message: 'issuers must be unique',
    });
}

function isAcceptableUrl(value: string, allowInsecureLoopback: boolean): boolean {
  if (!URL.canParse(value) || value.includes('#')) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
