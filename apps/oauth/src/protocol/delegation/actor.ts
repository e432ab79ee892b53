/** RFC 8693 section 4.1 `act`: the current actor, nesting the actor before it. */
export interface Actor {
  sub: string;
  /** Set when another issuer named the actor (RFC 8693 section 4.1: sub is unique per iss). */
  iss?: string;
  act?: Actor;
}

/** docs/decisions.md #12: a token names at most this many actors; one more is refused. */
export const MAX_ACTOR_DEPTH = 5;

const MAX_CLAIM_LENGTH = 2048;

/** A malformed `act`, or a chain that would grow past MAX_ACTOR_DEPTH. */
export class ActorChainError extends Error {}

/**
 * The `act` claim of a verified token: undefined when absent. Only `sub`, `iss` and the
 * nested `act` are kept (RFC 8693 section 4.1 gives them meaning; other members are not
 * identity). Malformed or deeper than MAX_ACTOR_DEPTH: ActorChainError.
 */
export function readActor(claim: unknown, depth = 1): Actor | undefined {
  if (claim === undefined) return undefined;
  if (depth > MAX_ACTOR_DEPTH) throw new ActorChainError('act nested too deeply');
  if (typeof claim !== 'object' || claim === null || Array.isArray(claim)) {
    throw new ActorChainError('act is not an object');
  }
  const { sub, iss, act } = claim as Record<string, unknown>;
  if (!isClaimString(sub)) throw new ActorChainError('act.sub is not a string');
  if (iss !== undefined && !isClaimString(iss)) throw new ActorChainError('act.iss is not a string');
  const before = readActor(act, depth + 1);
  return { sub, ...(iss !== undefined ? { iss } : {}), ...(before ? { act: before } : {}) };
}

/**
 * RFC 8693 section 4.1: `sub` acts now, for whoever the token already named; the earlier
 * chain is kept whole, never dropped.
 */
export function delegateTo(sub: string, before: Actor | undefined): Actor {
  if (actorDepth(before) + 1 > MAX_ACTOR_DEPTH) {
    throw new ActorChainError(`delegation chain longer than ${MAX_ACTOR_DEPTH}`);
  }
  return { sub, ...(before ? { act: before } : {}) };
}

/** Each level names its issuer; those without one were named by `iss` (an ID-JAG's issuer). */
export function qualifyActor(actor: Actor, iss: string): Actor {
  return {
    sub: actor.sub,
    iss: actor.iss ?? iss,
    ...(actor.act ? { act: qualifyActor(actor.act, iss) } : {}),
  };
}

export function actorDepth(actor: Actor | undefined): number {
  return actor ? 1 + actorDepth(actor.act) : 0;
}

/** The actors' `sub`, the current one first (the audit log's actor chain). */
export function actorChain(actor: Actor | undefined): string[] {
  return actor ? [actor.sub, ...actorChain(actor.act)] : [];
}

function isClaimString(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_CLAIM_LENGTH;
}
