import { describe, expect, it } from 'vitest';
import {
  actorChain,
  ActorChainError,
  delegateTo,
  MAX_ACTOR_DEPTH,
  qualifyActor,
  readActor,
} from './actor.js';

// RFC 8693 section 4.1 act chains (docs/decisions.md #12, docs/agents.md #7, #10).
describe('act chains', () => {
  it('nests the earlier chain whole under the new actor', () => {
    const first = delegateTo('agent-1', undefined);
    expect(first).toEqual({ sub: 'agent-1' });
    const second = delegateTo('agent-2', first);
    expect(second).toEqual({ sub: 'agent-2', act: { sub: 'agent-1' } });
    expect(actorChain(second)).toEqual(['agent-2', 'agent-1']);
  });

  it('allows five actors and refuses a sixth', () => {
    let chain = delegateTo('a1', undefined);
    for (let depth = 2; depth <= MAX_ACTOR_DEPTH; depth += 1) chain = delegateTo(`a${depth}`, chain);
    expect(actorChain(chain)).toHaveLength(5);
    expect(() => delegateTo('a6', chain)).toThrow(ActorChainError);
  });

  it('reads sub, iss and act only, and refuses malformed or too deep claims', () => {
    expect(readActor(undefined)).toBeUndefined();
    expect(readActor({ sub: 'a', iss: 'https://idp.example', extra: 1, act: { sub: 'b' } })).toEqual({
      sub: 'a',
      iss: 'https://idp.example',
      act: { sub: 'b' },
    });
    for (const bad of [
      null,
      'a',
      ['a'],
      {},
      { sub: '' },
      { sub: 1 },
      { sub: 'a', iss: 2 },
      { sub: 'a', act: 'b' },
    ]) {
      expect(() => readActor(bad)).toThrow(ActorChainError);
    }
    const six = {
      sub: '1',
      act: { sub: '2', act: { sub: '3', act: { sub: '4', act: { sub: '5', act: { sub: '6' } } } } },
    };
    expect(() => readActor(six)).toThrow(ActorChainError);
    expect(readActor(six.act)).toBeDefined();
  });

  it("names another issuer's actors with that issuer, keeping any they had", () => {
    expect(
      qualifyActor({ sub: 'a', act: { sub: 'b', iss: 'https://other.example' } }, 'https://idp.example'),
    ).toEqual({
      sub: 'a',
      iss: 'https://idp.example',
      act: { sub: 'b', iss: 'https://other.example' },
    });
  });
});
