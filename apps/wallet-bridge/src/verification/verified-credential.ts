/** What a fully verified presentation tells about its holder (docs/wallet.md "Account mapping"). */
export interface VerifiedCredential {
  issuer: string;
  subject: string;
  email?: string;
}

/**
 * Any verification failure. Its reason is for the log only: every failure reaches the browser
 * as the same refusal (docs/wallet.md #8), so a probe learns nothing about which check failed.
 */
export class PresentationRejected extends Error {}
