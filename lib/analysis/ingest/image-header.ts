import { crc32 } from "node:zlib";
import { AnalysisError } from "../errors";
import type { IngestLimits } from "./limits";
import { assertWithinLimit } from "./limits";

/**
 * Reads an image's frames (size and resolution) from its header alone, so that
 * oversized or malformed images are refused before any decoder allocates pixels.
 */
export type ImageFormat = "png" | "jpeg" | "tiff" | "webp";

export interface ImageFrame {
  width: number;
  height: number;
  /** Dots per inch when the file states it, else undefined. */
  dpi?: number;
}

const INCH_PER_CM = 2.54;
/** TIFF tags and their meaning (TIFF 6.0). */
const TIFF_TAG_WIDTH = 256;
const TIFF_TAG_HEIGHT = 257;
const TIFF_TAG_X_RESOLUTION = 282;
const TIFF_TAG_RESOLUTION_UNIT = 296;
const TIFF_UNIT_CENTIMETRE = 3;

function unreadable(format: ImageFormat): AnalysisError {
  return new AnalysisError("unreadable", `The ${format.toUpperCase()} image header is damaged.`);
}

/** PNG colour types and the bit depths each allows (PNG specification, 11.2.2 IHDR). */
const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * IHDR fields outside what the specification allows are refused here: the
 * canvas decoder (@napi-rs/canvas) crashed the whole process on a PNG whose
 * compression method byte was 4 (found by `npm run fuzz`).
 */
function hasValidPngHeader(view: DataView): boolean {
  const depth = view.getUint8(24);
  const colourType = view.getUint8(25);
  const [compression, filter, interlace] = [view.getUint8(26), view.getUint8(27), view.getUint8(28)];
  return (PNG_BIT_DEPTHS[colourType] ?? []).includes(depth) && compression === 0 && filter === 0 && interlace <= 1;
}

const isLetter = (byte: number) => (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);

/**
 * A chunk type as the specification allows it (5.4): four letters, the third
 * upper case (the reserved bit clear). Any other stops libpng with an error.
 */
function isValidChunkType(view: DataView, at: number): boolean {
  for (let i = 0; i < 4; i++) if (!isLetter(view.getUint8(at + i))) return false;
  return view.getUint8(at + 2) < 0x61;
}

/**
 * The chunks before the image data, checked the way libpng reads them: the
 * canvas decoder crashes the whole process (SIGSEGV), instead of failing, on
 * every error libpng raises there (found by `npm run fuzz`): an IHDR that is
 * not first, not 13 bytes or fails its CRC; a chunk type that is not four
 * letters or has the reserved bit set; no IDAT at all (a file cut off before
 * it). Past the first IDAT it fails cleanly.
 * Returns the resolution from pHYs (unit 1 = pixels per metre), if any.
 */
function checkPngChunks(view: DataView, bytes: Uint8Array): { dpi?: number } {
  let dpi: number | undefined;
  for (let at = 8; at + 8 <= view.byteLength; ) {
    const length = view.getUint32(at);
    if (!isValidChunkType(view, at + 4)) throw unreadable("png");
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    if (type === "IDAT") {
      if (at === 8) throw unreadable("png");
      return { dpi };
    }
    const end = at + 12 + length;
    if ((at === 8) !== (type === "IHDR") || (type === "IHDR" && length !== 13) || end > view.byteLength) throw unreadable("png");
    if (crc32(bytes.subarray(at + 4, end - 4)) !== view.getUint32(end - 4)) throw unreadable("png");
    // The specification (5.4) has a decoder refuse a critical chunk it does not know.
    const critical = view.getUint8(at + 4) < 0x61;
    if (critical && type !== "IHDR" && type !== "PLTE") throw unreadable("png");
    if (type === "pHYs" && length >= 9 && view.getUint8(at + 16) === 1) dpi = Math.round((view.getUint32(at + 8) * INCH_PER_CM) / 100);
    at = end;
  }
  throw unreadable("png");
}

function readPng(view: DataView, bytes: Uint8Array): ImageFrame[] {
  if (view.byteLength < 33 || !hasValidPngHeader(view)) throw unreadable("png");
  const { dpi } = checkPngChunks(view, bytes);
  return [{ width: view.getUint32(16), height: view.getUint32(20), ...(dpi === undefined ? {} : { dpi }) }];
}

function readJpeg(view: DataView): ImageFrame[] {
  let dpi: number | undefined;
  for (let at = 2; at + 4 <= view.byteLength; ) {
    if (view.getUint8(at) !== 0xff) throw unreadable("jpeg");
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    // APP0 "JFIF": density unit 1 = dots per inch, 2 = dots per cm.
    if (marker === 0xe0 && at + 16 <= view.byteLength && view.getUint32(at + 4) === 0x4a464946) {
      const unit = view.getUint8(at + 11);
      const density = view.getUint16(at + 12);
      if (unit === 1) dpi = density;
      if (unit === 2) dpi = Math.round(density * INCH_PER_CM);
    }
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame && at + 9 <= view.byteLength) {
      return [{ height: view.getUint16(at + 5), width: view.getUint16(at + 7), dpi }];
    }
    at += 2 + length;
  }
  throw unreadable("jpeg");
}

function readTiff(view: DataView, maxFrames: number): ImageFrame[] {
  const little = view.getUint8(0) === 0x49;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const frames: ImageFrame[] = [];
  const seen = new Set<number>();
  for (let ifd = u32(4); ifd !== 0; ) {
    // A loop of IFD offsets is a classic hang; more frames than allowed is refused by the caller.
    if (seen.has(ifd) || ifd + 2 > view.byteLength || frames.length > maxFrames) break;
    seen.add(ifd);
    const count = u16(ifd);
    if (ifd + 2 + count * 12 + 4 > view.byteLength) throw unreadable("tiff");
    const frame: ImageFrame = { width: 0, height: 0 };
    let unit = 2;
    let resolution: number | undefined;
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      const tag = u16(entry);
      const short = u16(entry + 2) === 3;
      const value = short ? u16(entry + 8) : u32(entry + 8);
      if (tag === TIFF_TAG_WIDTH) frame.width = value;
      if (tag === TIFF_TAG_HEIGHT) frame.height = value;
      if (tag === TIFF_TAG_RESOLUTION_UNIT) unit = value;
      if (tag === TIFF_TAG_X_RESOLUTION && value + 8 <= view.byteLength && u32(value + 4) > 0) {
        resolution = u32(value) / u32(value + 4);
      }
    }
    if (resolution) frame.dpi = Math.round(unit === TIFF_UNIT_CENTIMETRE ? resolution * INCH_PER_CM : resolution);
    if (frame.width === 0 || frame.height === 0) throw unreadable("tiff");
    frames.push(frame);
    ifd = u32(ifd + 2 + count * 12);
  }
  if (frames.length === 0) throw unreadable("tiff");
  return frames;
}

function readWebp(view: DataView): ImageFrame[] {
  if (view.byteLength < 30) throw unreadable("webp");
  const chunk = String.fromCharCode(view.getUint8(12), view.getUint8(13), view.getUint8(14), view.getUint8(15));
  const u24 = (at: number) => view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
  if (chunk === "VP8X") return [{ width: u24(24) + 1, height: u24(27) + 1 }];
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return [{ width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }];
  }
  if (chunk === "VP8 ") return [{ width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff }];
  throw unreadable("webp");
}

/** The frames of an image, refused with limit_exceeded when a frame or the frame count is over the limits. */
export function readImageFrames(bytes: Uint8Array, format: ImageFormat, limits: IngestLimits): ImageFrame[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let frames: ImageFrame[];
  try {
    if (format === "png") frames = readPng(view, bytes);
    else if (format === "jpeg") frames = readJpeg(view);
    else if (format === "tiff") frames = readTiff(view, limits.maxPages);
    else frames = readWebp(view);
  } catch (error) {
    if (error instanceof AnalysisError) throw error;
    throw unreadable(format);
  }
  assertWithinLimit(limits, "maxPages", frames.length, "image frames");
  frames.forEach((frame, i) => {
    if (frame.width === 0 || frame.height === 0) throw new AnalysisError("unreadable", "The image has no pixels.", i + 1);
    const size = `${frame.width}×${frame.height} pixels`;
    assertWithinLimit(limits, "maxPixels", frame.width * frame.height, size);
    const ratio = Math.max(frame.width, frame.height) / Math.min(frame.width, frame.height);
    assertWithinLimit(limits, "maxAspectRatio", Math.ceil(ratio), size);
    assertWithinLimit(limits, "maxImageSide", Math.max(frame.width, frame.height), size);
  });
  return frames;
}
