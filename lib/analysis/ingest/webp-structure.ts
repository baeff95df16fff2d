/**
 * A WebP file's container checked the way its writers produce it (RFC 9649),
 * before @napi-rs/canvas may decode it: its decoder crashed the whole reader
 * process (SIGSEGV) on WebP files with a RIFF size that disagrees with the
 * file, a truncated chunk, or reserved VP8X flags set (found by `npm run
 * fuzz`). What fails here is still read by OCR; it is only never decoded
 * in-process.
 */

const fourCc = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

/** VP8X flags byte: bits 7-6 and 0 are reserved (must be 0); bit 1 marks an animation, which canvas does not decode as one image. */
const VP8X_RESERVED_BITS = 0b1100_0001;
const VP8X_ANIMATION_BIT = 0b0000_0010;
const VP8L_SIGNATURE = 0x2f;
/** A lossy key frame's start code (RFC 6386, 9.1). */
const VP8_START_CODE = [0x9d, 0x01, 0x2a];

interface Size {
  width: number;
  height: number;
}

/** Size of a VP8 (lossy) key frame, or null when its frame header is inconsistent with the chunk. */
function vp8Size(view: DataView, at: number, size: number): Size | null {
  if (size < 10) return null;
  const tag = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
  const keyFrame = (tag & 1) === 0;
  const version = (tag >> 1) & 7;
  const firstPartitionSize = tag >>> 5;
  if (!keyFrame || version > 3 || firstPartitionSize > size - 10) return null;
  if (VP8_START_CODE.some((byte, i) => view.getUint8(at + 3 + i) !== byte)) return null;
  return { width: view.getUint16(at + 6, true) & 0x3fff, height: view.getUint16(at + 8, true) & 0x3fff };
}

/** Size of a VP8L (lossless) image, or null when its header is not one. */
function vp8lSize(view: DataView, at: number, size: number): Size | null {
  if (size < 5 || view.getUint8(at) !== VP8L_SIGNATURE) return null;
  const bits = view.getUint32(at + 1, true);
  if (bits >>> 29 !== 0) return null; // version must be 0
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

/** True when `bytes` is a still WebP image whose every chunk lies inside the file and agrees with its header. */
export function isWellFormedWebp(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 20 || fourCc(bytes, 0) !== "RIFF" || fourCc(bytes, 8) !== "WEBP") return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 !== bytes.byteLength) return false;
  let canvas: Size | undefined;
  let image: Size | null | undefined;
  for (let at = 12, index = 0; at < bytes.byteLength; index++) {
    if (at + 8 > bytes.byteLength) return false;
    const type = fourCc(bytes, at);
    const size = view.getUint32(at + 4, true);
    const payload = at + 8;
    if (payload + size > bytes.byteLength) return false;
    if (type === "VP8X") {
      const flags = view.getUint8(payload);
      if (index !== 0 || size !== 10 || flags & (VP8X_RESERVED_BITS | VP8X_ANIMATION_BIT)) return false;
      if (view.getUint8(payload + 1) | view.getUint8(payload + 2) | view.getUint8(payload + 3)) return false;
      const u24 = (offset: number) => view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getUint8(offset + 2) << 16);
      canvas = { width: u24(payload + 4) + 1, height: u24(payload + 7) + 1 };
    } else if (type === "VP8 " || type === "VP8L") {
      if (image !== undefined || (index !== 0 && !canvas)) return false;
      image = type === "VP8 " ? vp8Size(view, payload, size) : vp8lSize(view, payload, size);
      if (!image || image.width === 0 || image.height === 0) return false;
    } else if (type === "ANIM" || type === "ANMF" || index === 0) {
      return false;
    }
    at = payload + size + (size % 2);
  }
  if (!image) return false;
  return !canvas || (canvas.width === image.width && canvas.height === image.height);
}
