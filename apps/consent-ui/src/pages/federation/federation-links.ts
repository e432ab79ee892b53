/** The upstream sign-in pages of interface.md 4.14. */
export const FEDERATION_PAGE_PATHS = {
  /** `/ui/federation/{id}/start` */
  federation: '/ui/federation',
  callback: '/ui/federation/callback',
  unlink: '/ui/account/federation/unlink',
} as const;

export interface FederationLinks {
  /** Sign-in (GET) or link (POST) with provider `id`, continuing the pending authorization `handle`. */
  start(providerId: string, handle?: string): string;
  unlink(): string;
}

export function federationLinks(issuer: string): FederationLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  return {
    start: (providerId, handle) => {
      const start = `${base}${FEDERATION_PAGE_PATHS.federation}/${encodeURIComponent(providerId)}/start`;
      return handle === undefined ? start : `${start}?handle=${encodeURIComponent(handle)}`;
    },
    unlink: () => `${base}${FEDERATION_PAGE_PATHS.unlink}`,
  };
}
