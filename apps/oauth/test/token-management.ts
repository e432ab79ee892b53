import type { IntrospectResponse } from '@authz/proto/oauth/v1/oauth';

export const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

/** A form as name/value pairs, the way the gateway passes it on. */
export function form(fields: [string, string][]) {
  return fields.map(([name, value]) => ({ name, value }));
}

/** An IntrospectResponse as the plain RFC 7662 members it stands for, to compare exactly. */
export function introspectionBody({ active, token }: IntrospectResponse): Record<string, unknown> {
  if (!token) return { active };
  const { sub, clientId, scope, aud, iss, exp, iat, tokenType } = token;
  return {
    active,
    sub,
    client_id: clientId,
    ...(scope === undefined ? {} : { scope }),
    aud: aud.case === 'audiences' ? aud.value.values : aud.value,
    iss,
    exp: Number(exp),
    iat: Number(iat),
    token_type: tokenType,
  };
}
