import { DEVICE_PAGE_PATHS } from '@authz/shared/protocol';
import type { Route } from '../route.js';
import { showDeviceConsentPage, submitDeviceConsent } from './device-consent-page.js';
import { showDeviceEntryPage, submitDeviceEntry } from './device-entry-page.js';
import { showDeviceApprovedPage, showDeviceDeniedPage } from './device-result-pages.js';

/** interface.md 4.13: the device authorization grant's pages (RFC 8628 section 3.3). */
export const DEVICE_ROUTES: readonly Route[] = [
  { path: DEVICE_PAGE_PATHS.entry, methods: { GET: showDeviceEntryPage, POST: submitDeviceEntry } },
  { path: DEVICE_PAGE_PATHS.consent, methods: { GET: showDeviceConsentPage, POST: submitDeviceConsent } },
  { path: DEVICE_PAGE_PATHS.approved, methods: { GET: showDeviceApprovedPage } },
  { path: DEVICE_PAGE_PATHS.denied, methods: { GET: showDeviceDeniedPage } },
];
