/**
 * Joins chunks into one plain Uint8Array of its own (not a Node Buffer, which
 * pdf.js refuses, and not a view into Node's shared buffer pool).
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
