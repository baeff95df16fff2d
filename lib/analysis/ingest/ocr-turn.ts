import type { Canvas, Image } from "@napi-rs/canvas";
import { JpegImage } from "pdfjs-dist/image_decoders/pdf.image_decoders.mjs";
import { sniffFormat } from "./sniff";
import { isWellFormedWebp } from "./webp-structure";

type CanvasModule = typeof import("@napi-rs/canvas");
let canvasModule: Promise<CanvasModule> | undefined;

/**
 * @napi-rs/canvas, loaded when this process first turns or scales an image: a
 * native module every importer of the engine's index loaded at its start (the
 * server, which reads no image; each test file). Deferred, importing the index
 * costs about 100 ms less processor time and 20-30 MB less resident memory.
 * Readers load it before they say they are ready (child.mjs).
 */
function canvasLibrary(): Promise<CanvasModule> {
  canvasModule ??= import("@napi-rs/canvas");
  return canvasModule;
}

/**
 * @napi-rs/canvas's native decoders crash the whole process (SIGSEGV), not
 * throw, on some damaged files, all found by `npm run fuzz`: a valid greyscale
 * TIFF, a truncated or bit-flipped JPEG, a WebP whose RIFF size or VP8X flags
 * lie. So only PNG (whose header ./image-header checks) and WebP whose
 * container holds together reach it; JPEG is decoded by pdf.js's JPEG decoder
 * (plain JavaScript, throws a JpegError on what it cannot read) and drawn from
 * its pixels; TIFF is never decoded here.
 */
async function decode(canvas: CanvasModule, bytes: Uint8Array): Promise<Image | Canvas | undefined> {
  const format = sniffFormat(bytes);
  if (format === "jpeg") return decodeJpeg(canvas, bytes);
  if (format !== "png" && !(format === "webp" && isWellFormedWebp(bytes))) return undefined;
  try {
    return await canvas.loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return undefined;
  }
}

/** A JPEG's pixels on a canvas, or undefined when pdf.js cannot read it. */
function decodeJpeg({ createCanvas, ImageData }: CanvasModule, bytes: Uint8Array): Canvas | undefined {
  try {
    const jpeg = new JpegImage();
    jpeg.parse(bytes);
    const { width, height } = jpeg;
    if (!width || !height) return undefined;
    const data = jpeg.getData({ width, height, forceRGBA: true });
    const rgba = toRgba(data, width * height);
    if (!rgba) return undefined;
    const canvas = createCanvas(width, height);
    canvas.getContext("2d").putImageData(new ImageData(rgba, width, height), 0, 0);
    return canvas;
  } catch {
    return undefined;
  }
}

/** RGBA from what the decoder gives (RGBA, or RGB for an Adobe RGB JPEG it does not convert). */
function toRgba(data: Uint8ClampedArray | Uint8Array, pixels: number): Uint8ClampedArray | undefined {
  if (data.length === pixels * 4) return new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  if (data.length !== pixels * 3) return undefined;
  const rgba = new Uint8ClampedArray(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    rgba[i * 4] = data[i * 3]!;
    rgba[i * 4 + 1] = data[i * 3 + 1]!;
    rgba[i * 4 + 2] = data[i * 3 + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}

/**
 * Turns an image by quarter turns, for the pages whose orientation tesseract's
 * own detection missed (sparse forms, tables, upside-down pages with few
 * words). Decodes PNG, JPEG and WebP through @napi-rs/canvas (pdfjs-dist's own
 * canvas, or pdf.js for JPEG: see decode); returns undefined for what it
 * cannot decode (TIFF, damaged files).
 */
export async function turnImage(bytes: Uint8Array, quarterTurns: 1 | 2 | 3): Promise<Uint8Array | undefined> {
  const library = await canvasLibrary();
  const image = await decode(library, bytes);
  if (!image) return undefined;
  const sideways = quarterTurns % 2 === 1;
  const canvas = library.createCanvas(sideways ? image.height : image.width, sideways ? image.width : image.height);
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
  const library = await canvasLibrary();
  const image = await decode(library, bytes);
  if (!image) return undefined;
  const factor = factorFor(image.width, image.height);
  if (factor === 1) return undefined;
  const canvas = library.createCanvas(Math.max(1, Math.round(image.width * factor)), Math.max(1, Math.round(image.height * factor)));
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  return { bytes: new Uint8Array(await canvas.encode("png")), factor };
}
