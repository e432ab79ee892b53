import type { RateLimitBudget, RouteRateLimit } from '../plugins/rate-limit.js';

/**
 * One per-IP budget shared by every route that starts a wallet flow: POST /auth/link/wallet
 * and the hosted POST /ui/wallet-login and /ui/wallet-link each store a presentation request,
 * so starting flows is limited more tightly than browsing (WALLET_FLOW_RATE_LIMIT).
 */
export function walletFlowRateLimit(budget: RateLimitBudget): RouteRateLimit {
  return { bucket: 'wallet-flow', ...budget };
}
