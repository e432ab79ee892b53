import { readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import { z } from 'zod';

/**
 * One entry of ENTERPRISE_TRUSTED_ISSUERS_FILE (docs/contract.md): an issuer, where its keys are,
 * and the email domains it may assert (docs/enterprise-assertions.md #20), lower-cased.
 */
export type TrustedIssuer = (
  { issuer: string; jwksUri: string } | { issuer: string; jwks: JSONWebKeySet }
) & {
  emailDomains: string[];
};

/** The file could not be used; `problems` names every one found (never the file's content). */
export class TrustedIssuersFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'TrustedIssuersFileError';
  }
}

/** The hosts the test-only loopback flag admits over plain http, as URL.hostname spells them. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Reads and checks the trusted-issuers file at start-up (docs/enterprise-assertions.md #8, #20):
 * a JSON list of `{ issuer, jwks_uri, email_domains }` or `{ issuer, jwks, email_domains }`,
 * issuers unique, https URLs (loopback http only under CIMD_ALLOW_INSECURE_LOOPBACK, for tests),
 * public asymmetric keys only, at least one email domain each. Throws a TrustedIssuersFileError
 * naming every problem, never the file's content.
 */
export function readTrustedIssuersFile(path: string, allowInsecureLoopback: boolean): TrustedIssuer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TrustedIssuersFileError([
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TrustedIssuersFileError([`${path} is not JSON`]);
  }
  const parsed = fileSchema(allowInsecureLoopback).safeParse(json);
  if (!parsed.success) {
    throw new TrustedIssuersFileError(
      parsed.error.issues.map((issue) => `${path}: ${issue.path.join('.') || '(file)'}: ${issue.message}`),
    );
  }
  return parsed.data.map((entry) => ({
    ...(entry.jwks_uri !== undefined
      ? { issuer: entry.issuer, jwksUri: entry.jwks_uri }
      : { issuer: entry.issuer, jwks: entry.jwks as JSONWebKeySet }),
    emailDomains: [...new Set(entry.email_domains.map((domain) => domain.toLowerCase()))],
  }));
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
      // docs/enterprise-assertions.md #20: what the issuer may vouch for, named by the operator.
      email_domains: z.array(emailDomain).min(1, { message: 'list at least one email domain' }),
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

/**
 * A domain as it follows the `@` of an address (RFC 5321 section 4.1.2 Domain): dot-separated
 * labels of letters, digits and inner hyphens, at least two. No wildcard: a subdomain is listed
 * on its own, so trusting `example.com` never extends to whoever runs `mail.example.com`.
 */
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const emailDomain = z
  .string()
  .refine(
    (value) =>
      value.length <= 253 &&
      value.split('.').length >= 2 &&
      value.split('.').every((label) => DOMAIN_LABEL.test(label)),
    { message: 'must be a domain name such as example.com (no wildcard, no @)' },
  );

/**
 * docs/enterprise-assertions.md #20: whether `email` is at one of the issuer's domains, compared
 * case-insensitively (RFC 5321 section 2.4: domains are case-insensitive) and exactly.
 */
export function issuerMayAssertEmail(issuer: Pick<TrustedIssuer, 'emailDomains'>, email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  return issuer.emailDomains.includes(email.slice(at + 1).toLowerCase());
}

function isAcceptableUrl(value: string, allowInsecureLoopback: boolean): boolean {
  if (!URL.canParse(value) || value.includes('#')) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
