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

export function describeScope(scope: string): string {
  return Object.hasOwn(SCOPE_WORDING, scope) ? SCOPE_WORDING[scope]! : scope;
}
