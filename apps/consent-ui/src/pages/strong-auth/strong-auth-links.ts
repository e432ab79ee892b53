/** The hosted pages of strong authentication (docs/interface.md 4.11), under the issuer's path (links.ts). */
export const STRONG_AUTH_PAGE_PATHS = {
  secondStep: '/ui/login/mfa',
  stepUp: '/ui/login/step-up',
  passkeyStepUpOptions: '/ui/login/step-up/passkey/options',
  passkeyStepUp: '/ui/login/step-up/passkey',
  totpBegin: '/ui/account/totp',
  totpConfirm: '/ui/account/totp/confirm',
  totpRemove: '/ui/account/totp/remove',
  passkeySignInOptions: '/ui/login/passkey/options',
  passkeySignIn: '/ui/login/passkey',
  passkeyRegistrationOptions: '/ui/account/passkeys/options',
  passkeyRegister: '/ui/account/passkeys',
  passkeyRename: '/ui/account/passkeys/rename',
  passkeyRemove: '/ui/account/passkeys/remove',
  webauthnScript: '/ui/assets/webauthn.js',
  passkeyScript: '/ui/assets/passkeys.js',
} as const;

export type StrongAuthLinks = { [Name in keyof typeof STRONG_AUTH_PAGE_PATHS]: () => string };

export function strongAuthLinks(issuer: string): StrongAuthLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  const entries = Object.entries(STRONG_AUTH_PAGE_PATHS).map(([name, path]) => [
    name,
    () => `${base}${path}`,
  ]);
  return Object.fromEntries(entries) as StrongAuthLinks;
}
