/**
 * The consent screen names scopes in plain words (OIDC Core section 5.4 for the OpenID ones).
 * A scope without wording is shown as requested: the user still sees exactly what is asked.
 */
const SCOPE_WORDING: Readonly<Record<string, string>> = {
  openid: 'Confirm your identity',
  profile: 'Your name',
  email: 'Your email address',
  offline_access: 'Stay signed in and keep access while you are away',
};

/**
 * interface.md 4.10: `profile` releases the user's name, so the screen promises "Your name" only to a
 * user who has set one; for the others it says there is none to share.
 */
const PROFILE_WITHOUT_NAME = 'Your profile (you have not set a name)';

export function describeScope(scope: string, user: { name?: string | undefined } = {}): string {
  if (scope === 'profile' && user.name === undefined) return PROFILE_WITHOUT_NAME;
  return Object.hasOwn(SCOPE_WORDING, scope) ? SCOPE_WORDING[scope]! : scope;
}
