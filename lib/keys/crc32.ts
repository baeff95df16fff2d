/** Reflected IEEE 802.3 polynomial, the CRC-32 of zlib and PNG. */
const POLYNOMIAL = 0xedb88320;

const TABLE = Array.from({ length: 256 }, (_, index) => {
  let c = index;
  for (let bit = 0; bit < 8; bit++) c = c & 1 ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of the UTF-8 bytes of `text`, as an unsigned 32-bit integer. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
