import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'links'>;

/** GET /ui/device/approved (interface.md 4.13): the device gets its tokens at its next poll. */
export async function showDeviceApprovedPage(deps: Deps): Promise<PageResult> {
  return documentPage(deps.links, 200, {
    title: 'Device connected',
    content: html`<p>You allowed the app on your device. Go back to your device: it signs in by itself.</p>
      <p>You can close this page.</p>`,
  });
}

/** GET /ui/device/denied: the device is told access_denied at its next poll. */
export async function showDeviceDeniedPage(deps: Deps): Promise<PageResult> {
  return documentPage(deps.links, 200, {
    title: 'Device not connected',
    content: html`<p>You denied the request. The app on your device gets no access to your account.</p>
      <p>You can close this page.</p>`,
  });
}
