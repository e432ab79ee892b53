/** The token of a mailed link (64 hex); anything else is no token at all. */
export function linkTokenOf(value: string | undefined): string | undefined {
  return value !== undefined && /^[0-9a-fA-F]{64}$/.test(value) ? value : undefined;
}
