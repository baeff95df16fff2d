import { createCanvas, loadImage, type Image } from "@napi-rs/canvas";
import { sniffFormat } from "./sniff";

/** What @napi-rs/canvas decodes safely. It does not refuse a TIFF: it crashes the process on one (a valid greyscale TIFF, found by `npm run fuzz`). */
const CANVAS_FORMATS = new Set(["png", "jpeg", "webp"]);

/** The decoded image, or undefined for what canvas must not or cannot decode. */
async function decode(bytes: Uint8Array): Promise<Image | undefined> {
  if (!CANVAS_FORMATS.has(sniffFormat(bytes) ?? "")) return undefined;
  try {
    return await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return undefined;
  }
}

/**
 * Turns an image by quarter turns, for the pages whose orientation tesseract's
 * own detection missed (sparse forms, tables, upside-down pages with few
 * words). Decodes PNG, JPEG and WebP through @napi-rs/canvas (pdfjs-dist's own
 * canvas); returns undefined for what it cannot decode (TIFF).
 */
export async function turnImage(bytes: Uint8Array, quarterTurns: 1 | 2 | 3): Promise<Uint8Array | undefined> {
  const image = await decode(bytes);
  if (!image) return undefined;
  const sideways = quarterTurns % 2 === 1;
  const canvas = createCanvas(sideways ? image.height : image.width, sideways ? image.width : image.height);
  const ctx = canvas.getContext("2d");
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((quarterTurns * Math.PI) / 2);
  ctx.drawImage(image, -image.width / 2, -image.height / 2);
  return new Uint8Array(await canvas.encode("png"));
}

/**
 * The image scaled by the factor `factorFor` chooses from its decoded size
 * (0.5 = half each side), as PNG with that factor; undefined for what canvas
 * cannot decode (TIFF) and when the factor is 1.
 */
export async function scaleImage(
  bytes: Uint8Array,
  factorFor: (width: number, height: number) => number,
): Promise<{ bytes: Uint8Array; factor: number } | undefined> {
  const image = await decode(bytes);
  if (!image) return undefined;
  const factor = factorFor(image.width, image.height);
  if (factor === 1) return undefined;
  const canvas = createCanvas(Math.max(1, Math.round(image.width * factor)), Math.max(1, Math.round(image.height * factor)));
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  return { bytes: new Uint8Array(await canvas.encode("png")), factor };
}
