import { SESSION_COOKIE } from '@authz/shared/protocol';
import { outcomePage } from './error-page.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import type { PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { expiredRequestPage, refusalPage } from '../status/status-pages.js';

type Deps = Pick<Registry, 'authorization' | 'links'>;

/**
 * GET /ui/resume/{handle} (interface.md 3, 4.5): oauth consumes the pending authorization and sends
 * the browser on, to consent or to the client, or back to sign-in when the session cookie
 * signs nobody in (the handle then survives). oauth judges the cookie, so it is passed as is.
 */
export async function resumeAuthorization(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  try {
    const outcome = await deps.authorization.resumeAuthorization({
      handle,
      sessionToken: request.cookies[SESSION_COOKIE] || undefined,
      origin: request.origin,
    });
    return outcomePage(deps, outcome, 302);
  } catch (error) {
    return refusalPage(deps, error);
  }
}
