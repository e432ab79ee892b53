import type { User } from '@authz/proto/identity/v1/identity';

/** interface.md 2.1 User: camelCase, epoch-millisecond timestamps, updatedAt null until changed. */
export interface UserView {
  id: string;
  email: string;
  emailVerified: boolean;
  realmId: string;
  createdAt: number;
  updatedAt: number | null;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    realmId: user.realmId,
    createdAt: Number(user.createdAt),
    updatedAt: user.updatedAt === undefined ? null : Number(user.updatedAt),
  };
}

export const userViewSchema = {
  type: 'object',
  required: ['id', 'email', 'emailVerified', 'realmId', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    emailVerified: { type: 'boolean' },
    realmId: { type: 'string' },
    createdAt: { type: 'integer' },
    updatedAt: { type: ['integer', 'null'] },
  },
} as const;
