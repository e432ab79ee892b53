/** interface.md 4.14: the one redirect URI registered at every upstream. */
export function federationCallbackUrl(issuer: string): string {
  return `${issuer}/ui/federation/callback`;
}
