/**
 * Tells a document's real format from its first bytes. The declared content
 * type and the file name are hints at most: a caller can label anything "PDF".
 */
export type DocumentFormat = "pdf" | "docx" | "eml" | "png" | "jpeg" | "tiff" | "webp";

/** How far into the file the PDF header may start (some producers prepend junk). */
const PDF_HEADER_WINDOW = 1024;
/** How much of the head is read to recognise an e-mail's header block. */
const EML_HEAD_BYTES = 4096;
/** Header fields that every real RFC 5322 message carries at least two of. */
const EML_HEADER_FIELDS = ["from", "to", "subject", "date", "message-id", "mime-version", "received", "content-type", "return-path"];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function findAscii(bytes: Uint8Array, needle: string, limit: number): number {
  const end = Math.min(bytes.length, limit) - needle.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/** A ZIP is a DOCX when one of its local file headers names word/document.xml. */
function isDocx(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && findAscii(bytes, "word/document.xml", bytes.length) >= 0;
}

function isEml(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, EML_HEAD_BYTES));
  const headerBlock = head.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const lines = headerBlock.split(/\r?\n/);
  if (!/^[A-Za-z][A-Za-z0-9-]*:/.test(lines[0] ?? "")) return false;
  const names = new Set(
    lines.map((line) => /^([A-Za-z][A-Za-z0-9-]*):/.exec(line)?.[1]?.toLowerCase()).filter((n) => n !== undefined),
  );
  return EML_HEADER_FIELDS.filter((field) => names.has(field)).length >= 2;
}

export function sniffFormat(bytes: Uint8Array): DocumentFormat | undefined {
  if (findAscii(bytes, "%PDF-", PDF_HEADER_WINDOW) >= 0) return "pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  if (isDocx(bytes)) return "docx";
  if (isEml(bytes)) return "eml";
  return undefined;
}

/** MIME types of the formats, for Content-Type checks and the API documentation. */
export const FORMAT_MIME_TYPES: Record<DocumentFormat, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  eml: "message/rfc822",
  png: "image/png",
  jpeg: "image/jpeg",
  tiff: "image/tiff",
  webp: "image/webp",
};
