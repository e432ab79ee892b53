/** Small HTTP helpers for tests that talk to the gateway over real HTTP. */
export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function postJson<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

export async function postForm<T = Record<string, unknown>>(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

export async function getJson<T = Record<string, unknown>>(
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

/** RFC 6750 section 3 with RFC 9728 section 5.1: the challenge of the server's own Bearer APIs. */
export function bearerChallenge(baseUrl: string): string {
  return `Bearer realm="authz", resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`;
}
