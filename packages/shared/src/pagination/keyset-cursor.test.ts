import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors/index.js';
import { decodeCursor, encodeCursor, pageLimit, toPage } from './keyset-cursor.js';

// docs/admin-api.md #6: opaque cursors over (time, id), pages of 1 to 100.
describe('keyset cursors', () => {
  it('round-trips a position and refuses anything it did not make', () => {
    const position = { at: new Date(1767225600123), id: '0b0c5f1e-8f7a-4c61-9d1e-2f3a4b5c6d7e' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
    const forged = [
      'xyz',
      Buffer.from('{"at":1}').toString('base64url'),
      Buffer.from('[1.5,"ab"]').toString('base64url'),
      Buffer.from('[1,"DROP TABLE"]').toString('base64url'),
    ];
    for (const bad of forged) {
      expect(() => decodeCursor(bad)).toThrow(ValidationError);
    }
  });

  it('takes limits of 1 to 100, 50 by default', () => {
    expect(pageLimit(0)).toBe(50);
    expect(pageLimit(1)).toBe(1);
    expect(pageLimit(100)).toBe(100);
    for (const bad of [101, -1, 2.5]) expect(() => pageLimit(bad)).toThrow(ValidationError);
  });

  it('names the next page by the last row shown, and none after the last page', () => {
    const rows = [1, 2, 3].map((n) => ({ at: new Date(n), id: `${n}` }));
    const full = toPage(rows, 2, (row) => row);
    expect(full.rows).toEqual(rows.slice(0, 2));
    expect(decodeCursor(full.nextCursor)).toEqual(rows[1]);
    expect(toPage(rows, 3, (row) => row)).toEqual({ rows, nextCursor: undefined });
  });
});
