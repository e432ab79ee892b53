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
    id: { type: 'string', description: 'The user id, `sub` of their tokens.' },
    email: { type: 'string' },
    emailVerified: { type: 'boolean', description: 'Whether the verification link was followed.' },
    realmId: { type: 'string' },
    createdAt: { type: 'integer', description: 'Epoch milliseconds.' },
    updatedAt: { type: ['integer', 'null'], description: 'Epoch milliseconds; null until first changed.' },
  },
} as const;
