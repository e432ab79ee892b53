import { describe, expect, it } from 'vitest';
import { qrCodeRenderer } from './wallet-qr-code.js';

const INVOCATION =
  'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fissuer.example%2Foid4vp%2Frequest%2Fh';

/** Width and height from the PNG's IHDR chunk (PNG spec 11.2.2). */
function pngSize(dataUri: string): { width: number; height: number } {
  const png = Buffer.from(dataUri.slice('data:image/png;base64,'.length), 'base64');
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('qrCodeRenderer', () => {
  it('draws a PNG of whole 4-pixel modules with a 4-module quiet zone, of the size it reports', async () => {
    const image = await qrCodeRenderer().image(INVOCATION);
    expect(image.dataUri).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(pngSize(image.dataUri)).toEqual({ width: image.size, height: image.size });
    // Versions have 21 + 4n modules: the size is (21 + 4n + 8) * 4.
    expect((image.size / 4 - 29) % 4).toBe(0);
  });

  it('draws each text once while it is among the last `entries` used', () => {
    const qrCodes = qrCodeRenderer({ entries: 2 });
    const a = qrCodes.image('a');
    expect(qrCodes.image('a')).toBe(a);
    const b = qrCodes.image('b');
    qrCodes.image('a');
    // 'b' is now the least recently used: 'c' evicts it, not 'a'.
    qrCodes.image('c');
    expect(qrCodes.image('a')).toBe(a);
    expect(qrCodes.image('b')).not.toBe(b);
  });
});
