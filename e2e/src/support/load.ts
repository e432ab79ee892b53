import { newDeveloper } from './clients.js';
import type { Suite } from './suite.js';
import { basicAuth, newClient } from './tokens.js';

// Many requests from one test: the fault tests (a service dies mid-load) and the rate-limit
// tests (the shipped budgets never refuse a real client's load) both drive it.

/** A developer and a client_credentials client of theirs, with its Basic header. */
export async function machineClient(suite: Suite) {
  const developer = await newDeveloper(suite);
  const client = await newClient(suite, developer.token);
  return { developer, client, headers: basicAuth(client.clientId, client.clientSecret!) };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** Milliseconds since the epoch, when the request was sent and when its answer was read. */
  sentAt: number;
  answeredAt: number;
}

/** POST /oauth/token with the client_credentials grant; a network failure rejects. */
export async function clientCredentialsToken(suite: Suite, headers: Record<string, string>): Promise<Answer> {
  const sentAt = Date.now();
  const response = await fetch(`${suite.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, sentAt, answeredAt: Date.now() };
}

/**
 * `total` requests with at most `concurrency` in flight; `onAnswer` sees each answer as it
 * comes (to inject a fault mid-load). Every request must be answered: a hung or refused HTTP
 * request rejects the whole load.
 */
export async function runLoad(
  total: number,
  concurrency: number,
  request: () => Promise<Answer>,
  onAnswer: (answer: Answer, answered: number) => void = () => undefined,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next += 1;
      const answer = await request();
      answers.push(answer);
      onAnswer(answer, answers.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

/** How many answers had each status: `{ 200: 380, 503: 2 }`. */
export function countStatuses(answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
