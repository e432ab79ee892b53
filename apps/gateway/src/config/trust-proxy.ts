/**
 * TRUST_PROXY (docs/contract.md): `false` (default) ignores X-Forwarded-*; `true` trusts every hop;
 * a number trusts that many hops; otherwise a comma-separated list of proxy addresses/CIDRs.
 * Only a trusted proxy may set the client IP that per-IP rate limits count against.
 */
export type TrustProxySetting = boolean | string[] | ((address: string, hop: number) => boolean);

export function parseTrustProxy(value: string): TrustProxySetting {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '0' || trimmed === '') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return (_address, hop) => hop < hops;
  }
  return trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
