/** `alice@example.com` → `a***@example.com`: enough to correlate logs, not to harvest addresses. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
