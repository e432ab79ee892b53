import { constantTimeEqual } from '@authz/shared/crypto';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { badRequestPage, expiredRequestPage, signInRequiredPage } from '../status/status-pages.js';

/** A consent form's POST that passed the checks every consent screen makes. */
export interface ConsentDecision {
  session: BrowserSession;
  allow: boolean;
  handle: string;
}

/**
 * The checks of every consent screen's POST (the code flow's, interface.md 4.5, and the device
 * grant's, interface.md 4.13), in this order: a signed-in browser, the session's CSRF token
 * compared in constant time (docs/decisions.md #17, #19), a decision of allow or deny, and a
 * well-formed handle. Either the decision or the page that refuses it.
 */
export async function readConsentDecision(
  deps: Pick<Registry, 'identity' | 'links'>,
  request: PageRequest,
): Promise<{ decision: ConsentDecision } | { refused: PageResult }> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return { refused: signInRequiredPage(deps) };
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return { refused: csrfRefusal() };
  const decision = request.form.get('decision');
  if (decision !== 'allow' && decision !== 'deny') return { refused: badRequestPage(deps) };
  const handle = request.form.get('handle');
  if (!isHandleShaped(handle)) return { refused: expiredRequestPage(deps) };
  return { decision: { session, allow: decision === 'allow', handle } };
}
