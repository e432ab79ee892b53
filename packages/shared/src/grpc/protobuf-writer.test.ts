import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { BatchedStatusSchema, CallResponseSchema, type BatchedOutcome } from '@authz/proto/rpc/v1/batch';
import { describe, expect, it } from 'vitest';

/**
 * toBinary as patched (patches/@bufbuild__protobuf@2.17.0.patch, docs/performance.md #19):
 * one writer kept between calls, each result copied into memory from Node's Buffer pool.
 * Whatever the writer did before, every result must be exactly the message's own bytes and
 * stay so.
 */
const status = (code: number, details: string) => create(BatchedStatusSchema, { code, details });

/** BatchedStatus { code = 5, details = "x" } on the wire: field 1 varint 5, field 2 length 1 "x". */
const SMALL_STATUS_BYTES = [0x08, 0x05, 0x12, 0x01, 0x78];

function responseOutcome(size: number, fill: number): BatchedOutcome {
  return { outcome: { case: 'response', value: new Uint8Array(size).fill(fill) } } as BatchedOutcome;
}

describe('toBinary with a kept writer', () => {
  it('writes the wire bytes of the message, after larger messages too', () => {
    expect([...toBinary(BatchedStatusSchema, status(5, 'x'))]).toEqual(SMALL_STATUS_BYTES);
    const large = create(CallResponseSchema, {
      outcomes: [responseOutcome(20_000, 7), responseOutcome(300, 9)],
    });
    const decoded = fromBinary(CallResponseSchema, toBinary(CallResponseSchema, large));
    expect(decoded.outcomes.map(({ outcome }) => outcome.value)).toEqual([
      new Uint8Array(20_000).fill(7),
      new Uint8Array(300).fill(9),
    ]);
    expect([...toBinary(BatchedStatusSchema, status(5, 'x'))]).toEqual(SMALL_STATUS_BYTES);
  });

  it('leaves every result as it was when later messages are encoded', () => {
    const first = toBinary(BatchedStatusSchema, status(3, 'first'));
    const firstCopy = Uint8Array.from(first);
    for (let n = 0; n < 50; n += 1) toBinary(BatchedStatusSchema, status(n, `later message ${n}`.repeat(n)));
    expect(first).toEqual(firstCopy);
    expect(fromBinary(BatchedStatusSchema, first)).toMatchObject({ code: 3, details: 'first' });
  });

  it('encodes the next message whole after one that failed half-way', () => {
    // The first outcome is written before the second one's int32 fails.
    const failing = create(CallResponseSchema, {
      outcomes: [
        responseOutcome(500, 1),
        { outcome: { case: 'status', value: status(1.5, 'not an int32') } },
      ],
    });
    expect(() => toBinary(CallResponseSchema, failing)).toThrow('invalid int32: 1.5');
    expect([...toBinary(BatchedStatusSchema, status(5, 'x'))]).toEqual(SMALL_STATUS_BYTES);
  });

  it('lets go of a writer grown past 64 KiB and encodes on', () => {
    const huge = create(CallResponseSchema, { outcomes: [responseOutcome(200_000, 4)] });
    expect(toBinary(CallResponseSchema, huge).byteLength).toBe(200_000 + 8);
    expect([...toBinary(BatchedStatusSchema, status(5, 'x'))]).toEqual(SMALL_STATUS_BYTES);
  });

  it('hands out small results from the Buffer pool, not an ArrayBuffer each (the patch is applied)', () => {
    const bytes = toBinary(BatchedStatusSchema, status(5, 'x'));
    expect(bytes.buffer.byteLength).toBe(Buffer.poolSize);
  });
});
