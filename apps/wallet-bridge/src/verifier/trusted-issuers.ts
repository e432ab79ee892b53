import { readFileSync } from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import { z } from 'zod';

/**
 * One entry of WALLET_TRUSTED_ISSUERS_FILE (docs/wallet.md "Trusted issuers"): a credential
 * issuer (`iss` of its SD-JWT VCs), its public keys, and the credential types (`vct`) of it
 * that wallet sign-in accepts.
 */
export interface TrustedCredentialIssuer {
  issuer: string;
  jwks: JSONWebKeySet;
  vct: string[];
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

const publicKey = z
  .looseObject({ kty: z.enum(['EC', 'OKP', 'RSA']) })
  .refine((jwk) => PRIVATE_JWK_MEMBERS.every((member) => !(member in jwk)), 'only public keys belong here');

const fileSchema = z
  .array(
    z.object({
      issuer: z.string().min(1),
      jwks: z.object({ keys: z.array(publicKey).min(1) }),
      vct: z.array(z.string().min(1)).min(1),
    }),
  )
  .min(1)
  .refine(
    (entries) => new Set(entries.map((entry) => entry.issuer)).size === entries.length,
    'issuers must be unique',
  );

/** Reads and checks the file; throws an Error naming the problem, never the file's content. */
export function readTrustedIssuers(path: string): TrustedCredentialIssuer[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON (${(error as NodeJS.ErrnoException).code ?? 'syntax'})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return parsed.data as TrustedCredentialIssuer[];
}
