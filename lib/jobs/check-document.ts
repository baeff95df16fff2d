import { AnalysisError, FORMAT_MIME_TYPES, sniffFormat, type DocumentFormat } from "@/lib/analysis";

const SUPPORTED_FORMATS_TEXT = "PDF, DOCX, EML, PNG, JPEG, TIFF or WebP";

/** What the sender said the document is, and where it said it (the words of a refusal name it). */
export interface DeclaredType {
  type: string;
  by: "url" | "upload";
}

/**
 * The one check every input passes before it is accepted, whoever sends it:
 * not empty, a format we read (decided by the bytes alone), and not declared
 * as another of our formats than its bytes are. Throws AnalysisError (empty
 * → 422, unsupported_format → 415); returns the sniffed format.
 */
export function checkDocument(bytes: Uint8Array, declared?: DeclaredType): DocumentFormat {
  return checkSniffedDocument({ sizeBytes: bytes.length, format: bytes.length === 0 ? undefined : sniffFormat(bytes) }, declared);
}

/**
 * The same check for a document sniffed as it streamed into storage (its
 * length and sniffFormat's decision, worked out chunk by chunk).
 */
export function checkSniffedDocument(document: { sizeBytes: number; format: DocumentFormat | undefined }, declared?: DeclaredType): DocumentFormat {
  if (document.sizeBytes === 0) throw new AnalysisError("empty", "The document is empty (0 bytes).");
  const format = document.format;
  if (!format) {
    throw new AnalysisError("unsupported_format", `The document is not a format we read; send a ${SUPPORTED_FORMATS_TEXT} document.`);
  }
  if (declared && declared.type !== FORMAT_MIME_TYPES[format]) {
    const said = declared.by === "url" ? `The url is served as ${declared.type}` : `The file is sent as ${declared.type}`;
    const fix = declared.by === "url" ? "serve the document with its real type" : "send the document with its real type";
    throw new AnalysisError("unsupported_format", `${said} but its bytes are ${format.toUpperCase()}; ${fix}.`);
  }
  return format;
}

/**
 * A multipart part's declared type worth checking: one of the formats we read.
 * Anything else (application/octet-stream, a browser's guess such as
 * application/x-pdf, none at all) says nothing, and the bytes decide alone.
 */
export function declaredPartType(type: string | undefined): DeclaredType | undefined {
  const bare = type?.split(";")[0]?.trim().toLowerCase();
  if (!bare || !(Object.values(FORMAT_MIME_TYPES) as string[]).includes(bare)) return undefined;
  return { type: bare, by: "upload" };
}
