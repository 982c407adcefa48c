// QR codes of short URLs (GET /api/shorts/{id}/qr): the symbol from the `qrcode` package,
// drawn here as a PNG (so every module is the same whole number of pixels, which keeps small
// images readable) or as its SVG (vector: any size is exact). docs/adr/0156.
import type { QrCodeQuery } from "@app/schemas/shortener";
import { PNG } from "pngjs";
import QRCode from "qrcode";

/** The blank border the QR standard asks for, in modules. */
const QUIET_ZONE = 4;
/** M: about 15% of the symbol may be damaged; the usual choice for printed links. */
const ERROR_CORRECTION = "M";

export interface QrImage {
  contentType: string;
  body: Buffer | string;
}

export async function renderQrCode(text: string, { format, size }: QrCodeQuery): Promise<QrImage> {
  if (format === "svg") {
    const svg = await QRCode.toString(text, {
      type: "svg",
      errorCorrectionLevel: ERROR_CORRECTION,
      margin: QUIET_ZONE,
      width: size,
    });
    return { contentType: "image/svg+xml", body: svg };
  }
  return { contentType: "image/png", body: renderPng(text, size) };
}

/**
 * A size × size grey-scale PNG: the largest whole number of pixels per module that leaves the
 * quiet zone, centred (what is left over widens the border). A symbol too large for `size`
 * (a very long SHORT_BASE_URL) is drawn at one pixel per module, larger than asked.
 */
function renderPng(text: string, size: number): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION });
  const count = modules.size;
  const scale = Math.max(1, Math.floor(size / (count + 2 * QUIET_ZONE)));
  const side = Math.max(size, (count + 2 * QUIET_ZONE) * scale);
  const offset = Math.floor((side - count * scale) / 2);
  const pixels = Buffer.alloc(side * side, 255);
  for (let row = 0; row < count; row++) {
    const start = (offset + row * scale) * side;
    for (let column = 0; column < count; column++) {
      if (!modules.get(row, column)) continue;
      const left = start + offset + column * scale;
      pixels.fill(0, left, left + scale);
    }
    for (let line = 1; line < scale; line++) pixels.copyWithin(start + line * side, start, start + side);
  }
  const png = new PNG({ width: side, height: side });
  png.data = pixels;
  // Filter "Up": a line repeating the one above is all zeros, which deflate shrinks to nothing
  // (1024 px in about 6 ms; letting pngjs try every filter per line took 30).
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType: 2 });
}
