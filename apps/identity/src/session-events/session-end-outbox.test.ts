import {
  SESSION_EVENTS_QUEUE_NAME,
  sessionEventsQueuePrefix,
  type SessionEndedJob,
} from '@authz/shared/session-events';
import { useTestEnvironment } from '@authz/shared/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';

// docs/identity.md #17: every end of a live session reaches the session-events queue, whatever
// statement ended it, and nothing else does.
const environment = useTestEnvironment();
let identity: IdentityHarness;
let connection: Redis;
let events: Queue<SessionEndedJob>;
let sequence = 0;

beforeAll(async () => {
  identity = await startIdentity(environment, { OUTBOX_POLL_INTERVAL_MS: '200' });
  connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
  events = new Queue(SESSION_EVENTS_QUEUE_NAME, {
    connection,
    prefix: sessionEventsQueuePrefix(environment.redisPrefix),
  });
});
afterAll(async () => {
  await events.close();
  connection.disconnect();
  await identity.close();
});

async function newSession(): Promise<{ userId: string; sessionId: string }> {
  const email = `ended${(sequence += 1)}@example.com`;
  const { user } = await identity.client.register({ email, password: 'a fine passphrase' });
  const { sessionId } = await identity.client.checkCredentials({ email, password: 'a fine passphrase' });
  return { userId: user!.id, sessionId };
}

async function queuedEnd(sessionId: string): Promise<SessionEndedJob> {
  return eventually(async () => {
    const jobs = await events.getJobs(['waiting', 'delayed', 'completed']);
    return jobs.find((job) => job.data.sessionId === sessionId)?.data;
  });
}

async function jobsFor(sessionId: string): Promise<number> {
  const jobs = await events.getJobs(['waiting', 'delayed', 'completed', 'active', 'failed']);
  return jobs.filter((job) => job.data.sessionId === sessionId).length;
}

async function outboxRows(sessionId: string): Promise<number> {
  const { rows } = await identity.sql.query(
    `SELECT count(*)::int AS n FROM identity.session_end_outbox WHERE session_id = $1`,
    [sessionId],
  );
  return rows[0].n as number;
}

describe('the session-end outbox', () => {
  it('relays an EndSession once, however often it is asked', async () => {
    const { userId, sessionId } = await newSession();
    await identity.client.endSession({ sessionId, userId });
    await identity.client.endSession({ sessionId, userId });
    const job = await queuedEnd(sessionId);
    expect(job).toEqual({ sessionId, userId, endedAt: expect.any(Number) });
    expect(await jobsFor(sessionId)).toBe(1);
    // Relayed rows go: the queue keeps the end, the table nothing of the user.
    await eventually(async () => ((await outboxRows(sessionId)) === 0 ? true : undefined));
  });

  it('records an end written by any statement, and a live session deleted with its account', async () => {
    const updated = await newSession();
    await identity.sql.query(`UPDATE identity.sessions SET ended_at = now() WHERE id = $1`, [
      updated.sessionId,
    ]);
    expect((await queuedEnd(updated.sessionId)).userId).toBe(updated.userId);

    const deleted = await newSession();
    await identity.sql.query(`DELETE FROM identity.users WHERE id = $1`, [deleted.userId]);
    expect((await queuedEnd(deleted.sessionId)).userId).toBe(deleted.userId);
  });

  it('records nothing for sessions that merely expire or were already ended', async () => {
    const expired = await newSession();
    await identity.sql.query(
      `UPDATE identity.sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expired.sessionId],
    );
    const ended = await newSession();
    await identity.client.endSession(ended);
    await queuedEnd(ended.sessionId);
    // Deleting the account afterwards: the expired and the ended sessions are no new ends.
    await identity.sql.query(`DELETE FROM identity.users WHERE id = ANY($1::uuid[])`, [
      [expired.userId, ended.userId],
    ]);
    await eventually(async () => ((await outboxRows(ended.sessionId)) === 0 ? true : undefined));
    expect(await outboxRows(expired.sessionId)).toBe(0);
    expect(await jobsFor(expired.sessionId)).toBe(0);
    expect(await jobsFor(ended.sessionId)).toBe(1);
  });
});
