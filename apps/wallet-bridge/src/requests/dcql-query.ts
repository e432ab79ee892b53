import type { TrustedCredentialIssuer } from '../verifier/trusted-issuers.js';

/** The one credential query's id: the vp_token object's only key (OID4VP 1.0 section 8.1). */
export const CREDENTIAL_QUERY_ID = 'wallet_credential';

/** The issuer-scoped stable claim the account mapping uses (docs/wallet.md "Account mapping"). */
export const SUBJECT_CLAIM = 'sub';

/**
 * OID4VP 1.0 section 6 (DCQL): one SD-JWT VC (format dc+sd-jwt) of a type some trusted issuer
 * issues, disclosing the subject and, when the wallet has it, the email; claim_sets lists the
 * preferred combination first (section 6.4.1).
 */
export function dcqlQuery(trustedIssuers: readonly TrustedCredentialIssuer[]) {
  return {
    credentials: [
      {
        id: CREDENTIAL_QUERY_ID,
        format: 'dc+sd-jwt',
        meta: { vct_values: [...new Set(trustedIssuers.flatMap((issuer) => issuer.vct))] },
        claims: [
          { id: 'subject', path: [SUBJECT_CLAIM] },
          { id: 'email', path: ['email'] },
        ],
        claim_sets: [['subject', 'email'], ['subject']],
      },
    ],
  };
}
