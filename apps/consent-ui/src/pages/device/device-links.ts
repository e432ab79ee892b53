import { DEVICE_PAGE_PATHS } from '@authz/shared/protocol';

/** Links between the device pages, paths under the issuer's own path (links.ts). */
export interface DeviceLinks {
  entry(): string;
  consent(): string;
  approved(): string;
  denied(): string;
}

export function deviceLinks(issuer: string): DeviceLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  return {
    entry: () => `${base}${DEVICE_PAGE_PATHS.entry}`,
    consent: () => `${base}${DEVICE_PAGE_PATHS.consent}`,
    approved: () => `${base}${DEVICE_PAGE_PATHS.approved}`,
    denied: () => `${base}${DEVICE_PAGE_PATHS.denied}`,
  };
}
