import { ServiceUnavailableError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';
import type {
  DeviceApproval,
  DeviceGrantStatus,
  DeviceGrantStore,
  DevicePoll,
  NewDeviceGrant,
  StoredDeviceGrant,
} from '../protocol/device-authorization/device-grant-store.js';

/**
 * How long a grant's record outlives its expiry, so a device polling late is told
 * expired_token rather than invalid_grant (RFC 8628 section 3.5, docs/device-grant.md #6).
 */
const EXPIRED_GRACE_SECONDS = 600;

// KEYS[1] grant; ARGV now, slowDownSeconds. Returns the grant's fields and whether the poll came
// too soon; a pending grant polled too soon gets a longer interval (RFC 8628 section 3.5).
const POLL = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local now = tonumber(ARGV[1])
local last = redis.call('HGET', KEYS[1], 'lastPolledAt')
local interval = tonumber(redis.call('HGET', KEYS[1], 'interval'))
local status = redis.call('HGET', KEYS[1], 'status')
local tooFast = 0
if last and status == 'pending' and now - tonumber(last) < interval * 1000 then
  tooFast = 1
  redis.call('HSET', KEYS[1], 'interval', interval + tonumber(ARGV[2]))
end
redis.call('HSET', KEYS[1], 'lastPolledAt', ARGV[1])
return { tooFast, redis.call('HGETALL', KEYS[1]) }
`;

// KEYS[1] grant, KEYS[2] its user code; ARGV from, to, approval JSON ('' for none), and '1'
// to retire the user code (a decided grant is no longer found by it).
const TRANSITION = `
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'approval', ARGV[3]) end
if ARGV[4] == '1' then redis.call('DEL', KEYS[2]) end
return 1
`;

/**
 * Device authorizations in Redis (docs/device-grant.md #3): one hash per grant under the keyed
 * hash of its device code, and the keyed hash of its user code pointing at it while undecided.
 * Every state change is one Lua script, so two replicas never both approve or redeem.
 */
export class RedisDeviceGrantStore implements DeviceGrantStore {
  constructor(private readonly redis: Redis) {}

  async create(grant: NewDeviceGrant): Promise<boolean> {
    const ttlMs = grant.expiresAt - Date.now();
    const claimed = await this.run(() =>
      this.redis.set(this.userCodeKey(grant.userCodeHash), grant.deviceCodeHash, 'PX', ttlMs, 'NX'),
    );
    if (claimed !== 'OK') return false;
    const key = this.grantKey(grant.deviceCodeHash);
    await this.run(() =>
      this.redis
        .multi()
        .hset(key, {
          clientId: grant.clientId,
          clientName: grant.clientName,
          clientSource: grant.clientSource,
          scope: grant.scope,
          expiresAt: String(grant.expiresAt),
          interval: String(grant.interval),
          userCodeHash: grant.userCodeHash,
          status: 'pending',
        })
        .pexpire(key, ttlMs + EXPIRED_GRACE_SECONDS * 1000)
        .exec(),
    );
    return true;
  }

  async findByDeviceCode(deviceCodeHash: string): Promise<StoredDeviceGrant | undefined> {
    const fields = await this.run(() => this.redis.hgetall(this.grantKey(deviceCodeHash)));
    return toGrant(deviceCodeHash, fields);
  }

  async findByUserCode(userCodeHash: string): Promise<StoredDeviceGrant | undefined> {
    const deviceCodeHash = await this.run(() => this.redis.get(this.userCodeKey(userCodeHash)));
    if (deviceCodeHash === null) return undefined;
    const grant = await this.findByDeviceCode(deviceCodeHash);
    return grant?.status === 'pending' && grant.expiresAt > Date.now() ? grant : undefined;
  }

  async countClientRequest(clientId: string, windowSeconds: number): Promise<number> {
    const window = Math.floor(Date.now() / (windowSeconds * 1000));
    return this.count(`oauth:device-client:${clientId}:${window}`, windowSeconds);
  }

  async countUserCodeEntry(userCodeHash: string, windowSeconds: number): Promise<number> {
    return this.count(`oauth:device-user-code-entries:${userCodeHash}`, windowSeconds);
  }

  private async count(key: string, windowSeconds: number): Promise<number> {
    const [[, count]] = (await this.run(() =>
      this.redis.multi().incr(key).expire(key, windowSeconds, 'NX').exec(),
    )) as [[unknown, number]];
    return count;
  }

  async poll(deviceCodeHash: string, now: number, slowDownSeconds: number): Promise<DevicePoll | undefined> {
    const result = (await this.run(() =>
      this.redis.eval(POLL, 1, this.grantKey(deviceCodeHash), String(now), String(slowDownSeconds)),
    )) as [number, string[]] | null;
    if (!result) return undefined;
    const fields: Record<string, string> = {};
    for (let index = 0; index < result[1].length; index += 2)
      fields[result[1][index]!] = result[1][index + 1]!;
    const grant = toGrant(deviceCodeHash, fields);
    return grant && { grant, tooFast: result[0] === 1 };
  }

  async decide(
    deviceCodeHash: string,
    decision: { approval: DeviceApproval } | { denied: true },
  ): Promise<boolean> {
    const grant = await this.findByDeviceCode(deviceCodeHash);
    if (!grant) return false;
    const approval = 'approval' in decision ? JSON.stringify(decision.approval) : '';
    const to = 'approval' in decision ? 'approved' : 'denied';
    return this.transition(
      deviceCodeHash,
      'pending',
      to,
      approval,
      this.userCodeKey(grant.userCodeHash),
      true,
    );
  }

  async redeem(deviceCodeHash: string): Promise<boolean> {
    return this.transition(deviceCodeHash, 'approved', 'redeemed', '', this.userCodeKey('none'), false);
  }

  private async transition(
    deviceCodeHash: string,
    from: DeviceGrantStatus,
    to: DeviceGrantStatus,
    approval: string,
    userCodeKey: string,
    retireUserCode: boolean,
  ): Promise<boolean> {
    const retire = retireUserCode ? '1' : '0';
    const done = await this.run(() =>
      this.redis.eval(TRANSITION, 2, this.grantKey(deviceCodeHash), userCodeKey, from, to, approval, retire),
    );
    return done === 1;
  }

  private grantKey(deviceCodeHash: string): string {
    return `oauth:device-grant:${deviceCodeHash}`;
  }

  private userCodeKey(userCodeHash: string): string {
    return `oauth:device-user-code:${userCodeHash}`;
  }

  private async run<R>(command: () => Promise<R>): Promise<R> {
    try {
      return await command();
    } catch (error) {
      throw new ServiceUnavailableError({ detail: 'device grant store unreachable', cause: error });
    }
  }
}

function toGrant(deviceCodeHash: string, fields: Record<string, string>): StoredDeviceGrant | undefined {
  if (fields.status === undefined) return undefined;
  return {
    deviceCodeHash,
    userCodeHash: fields.userCodeHash ?? '',
    clientId: fields.clientId ?? '',
    clientName: fields.clientName ?? '',
    clientSource: fields.clientSource ?? '',
    scope: fields.scope ?? '',
    expiresAt: Number(fields.expiresAt),
    interval: Number(fields.interval),
    status: fields.status as DeviceGrantStatus,
    ...(fields.approval ? { approval: JSON.parse(fields.approval) as DeviceApproval } : {}),
  };
}
