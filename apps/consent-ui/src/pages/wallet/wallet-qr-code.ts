import QRCode from 'qrcode';

/** Error correction M (15 %): survives a phone camera at an angle, keeps the code small. */
const ERROR_CORRECTION = 'M';
/** ISO/IEC 18004 asks for a quiet zone of four modules around the code. */
const QUIET_ZONE_MODULES = 4;
/** Whole device pixels per module keep the edges sharp (a version 10 code is 260 px). */
const MODULE_PIXELS = 4;

export interface QrCodeImage {
  /** A PNG data URI (the CSP allows `img-src data:`). */
  dataUri: string;
  /** Width and height in pixels. */
  size: number;
}

export interface QrCodes {
  image(text: string): Promise<QrCodeImage>;
}

/**
 * QR codes rendered server-side, so the pages need no script. A waiting screen reloads every
 * few seconds with the same invocation URI, and drawing the PNG costs milliseconds of CPU on
 * the event loop (about 20 ms on a loaded core), so the last `entries` images are kept.
 */
export function qrCodeRenderer({ entries = 256 }: { entries?: number } = {}): QrCodes {
  const rendered = new Map<string, Promise<QrCodeImage>>();
  return {
    image(text) {
      const held = rendered.get(text);
      // A Map iterates in insertion order: re-inserting makes it the most recently used.
      rendered.delete(text);
      const image = held ?? render(text);
      rendered.set(text, image);
      if (rendered.size > entries) rendered.delete(rendered.keys().next().value!);
      if (!held) image.catch(() => rendered.delete(text));
      return image;
    },
  };
}

/** One QR code, drawn now and not kept: for images of secrets (an otpauth URI). */
export async function render(text: string): Promise<QrCodeImage> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION });
  const dataUri = await QRCode.toDataURL(text, {
    type: 'image/png',
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: QUIET_ZONE_MODULES,
    scale: MODULE_PIXELS,
  });
  return { dataUri, size: (modules.size + 2 * QUIET_ZONE_MODULES) * MODULE_PIXELS };
}
