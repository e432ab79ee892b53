import type { Actor } from '../delegation/actor.js';

/** RFC 7662 section 2.2: what an active token is reported as (interface.md 4.3). */
export interface IntrospectedToken {
  sub: string;
  clientId: string;
  /** Absent when the token has no scope (docs/decisions.md #8). */
  scope?: string;
  /** As the token has it: one string or a list (RFC 7519 section 4.1.3). */
  aud: string | string[];
  iss: string;
  /** Epoch seconds. */
  exp: number;
  /** Epoch seconds. */
  iat: number;
  /**
   * `Bearer` for access tokens, `DPoP` for DPoP-bound ones (RFC 9449 section 6.2),
   * `refresh_token` for refresh tokens (docs/tokens.md #23).
   */
  tokenType: 'Bearer' | 'DPoP' | 'refresh_token';
  /** RFC 9449 section 6.2: cnf.jkt of a DPoP-bound access token. */
  cnfJkt?: string;
  /** RFC 8693 section 4.1: a delegated token's actor chain, as the token has it (docs/agents.md #8). */
  act?: Actor;
  /** A user's token: OIDC acr, RFC 8176 amr and auth_time as minted (docs/strong-authentication.md #13). */
  acr?: string;
  amr?: string[];
  authTime?: number;
}

/** interface.md 4.3: anything not active for the caller is `{ active: false }` and nothing more. */
export type Introspection = { active: false } | { active: true; token: IntrospectedToken };

export const INACTIVE: Introspection = { active: false };
