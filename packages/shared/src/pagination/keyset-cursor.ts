import { ValidationError } from '../errors/index.js';

/** A position in a list ordered by (time, id): the last row of the page before. */
export interface KeysetPosition {
  at: Date;
  id: string;
}

const ID_PATTERN = /^[0-9a-f-]{1,64}$/;

/**
 * Keyset pagination of the operator API (docs/admin-api.md #6): cursors are opaque to callers (base64url of the last row's time and
 * id), so the keyset can change without breaking the interface.
 */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at.getTime(), position.id])).toString('base64url');
}

/** The position a cursor names; ValidationError on `cursor` for anything this list never made. */
export function decodeCursor(cursor: string | undefined): KeysetPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(decoded) &&
      decoded.length === 2 &&
      Number.isSafeInteger(decoded[0]) &&
      typeof decoded[1] === 'string' &&
      ID_PATTERN.test(decoded[1])
    ) {
      return { at: new Date(decoded[0] as number), id: decoded[1] };
    }
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
}

/** interface.md 4.15: 1 to 100, 50 when absent (0 on the wire). */
export function pageLimit(limit: number): number {
  if (limit === 0) return 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ValidationError([{ path: 'limit', message: 'must be 1 to 100' }]);
  }
  return limit;
}

/** Splits `limit + 1` rows into a page and the cursor of the next one (absent on the last page). */
export function toPage<T>(
  rows: T[],
  limit: number,
  positionOf: (row: T) => KeysetPosition,
): { rows: T[]; nextCursor: string | undefined } {
  if (rows.length <= limit) return { rows, nextCursor: undefined };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(positionOf(page[page.length - 1]!)) };
}
