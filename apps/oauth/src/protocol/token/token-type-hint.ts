/** The kinds of token introspection and revocation look for. */
export type TokenKind = 'access_token' | 'refresh_token';

const TOKEN_KINDS: readonly TokenKind[] = ['access_token', 'refresh_token'];

/**
 * RFC 7009 section 2.1 and RFC 7662 section 2.1: token_type_hint is only a hint. The hinted
 * kind is looked at first, then the others; a missing or unknown hint changes nothing (spec
 * 4.3 answers 200 to anything at revocation, so unsupported_token_type is never sent).
 */
export function tokenKindsToTry(hint: string | undefined): TokenKind[] {
  const hinted = TOKEN_KINDS.find((kind) => kind === hint);
  return hinted ? [hinted, ...TOKEN_KINDS.filter((kind) => kind !== hinted)] : [...TOKEN_KINDS];
}
