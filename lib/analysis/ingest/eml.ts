import { createHash } from "node:crypto";
import { simpleParser, type Attachment, type ParsedMail } from "mailparser";
import { AnalysisError } from "../errors";
import type { Page } from "../types";
import { A4, DEFAULT_MARGINS, Typesetter } from "./docx-typeset";
import { ingestDocx } from "./docx";
import { ingestImage, type ImageIngestOptions } from "./image";
import { groupLines, orderLines } from "./layout";
import { assertWithinLimit, resolveLimits } from "./limits";
import { fillScannedPages } from "./ocr-pdf";
import { ingestPdf } from "./pdf";
import { scanMimeShape, type MimeBudget } from "./eml-scan";
import { sniffFormat } from "./sniff";

/**
 * An e-mail to pages: the message body first (its header fields and text),
 * then every attachment in the order it appears, each attachment's pages
 * following the previous one's. Pages are numbered consecutively across the
 * whole message (body page 1, the first attachment's first page next, …);
 * an attached e-mail contributes its own body and attachments in place.
 * Attachments in formats the engine does not read (calendar files, signatures)
 * contribute no pages.
 */
const BODY_FONT_SIZE = 11;
const SUBJECT_FONT_SIZE = 14;
/** HTML-only bodies are converted to text by mailparser up to this length; the rest is ignored. */
const MAX_HTML_TO_PARSE = 2 * 1024 * 1024;

/** What the whole e-mail has spent so far: one object shared by every nested message, so the caps are cumulative. */
interface EmlBudget extends MimeBudget {
  decodedBytes: number;
}

interface EmlContext {
  options: ImageIngestOptions;
  depth: number;
  budget: EmlBudget;
  /**
   * Pages of each attachment already read in this e-mail, by its bytes' hash:
   * the same file attached again (or a part repeated, as `npm run fuzz` sends
   * 60 copies of one scan) gives the same pages, and was OCRed once per copy.
   */
  read: Map<string, Page[]>;
}

function bodyPages(mail: ParsedMail): Page[] {
  const setter = new Typesetter(A4, DEFAULT_MARGINS);
  if (mail.subject) setter.paragraph(`Subject: ${mail.subject}`, SUBJECT_FONT_SIZE);
  const from = mail.from?.text;
  if (from) setter.paragraph(`From: ${from}`, BODY_FONT_SIZE);
  if (mail.date) setter.paragraph(`Date: ${mail.date.toISOString().slice(0, 10)}`, BODY_FONT_SIZE);
  const text = mail.text ?? "";
  for (const line of text.split(/\r?\n/)) if (line.trim()) setter.paragraph(line, BODY_FONT_SIZE);
  return setter.pages
    .filter((draft) => draft.words.length > 0)
    .map((draft, i) => ({ number: i + 1, width: A4[0], height: A4[1], lines: orderLines(groupLines(draft.words)), source: "email" as const }));
}

/** An attachment's pages, read once per distinct content in the e-mail; a repeat gets its own copy (later steps edit pages in place). */
async function attachmentPages(attachment: Attachment, context: EmlContext): Promise<Page[]> {
  // A message's depth is part of what it is: deeper, the same bytes may pass the nesting limit.
  const kind = attachment.contentType === "message/rfc822" ? `message at ${context.depth}` : attachment.related ? "related" : "file";
  const key = createHash("sha256").update(kind).update(attachment.content).digest("hex");
  const known = context.read.get(key);
  if (known) return structuredClone(known);
  const pages = await readAttachment(attachment, context);
  context.read.set(key, structuredClone(pages));
  return pages;
}

async function readAttachment(attachment: Attachment, context: EmlContext): Promise<Page[]> {
  const bytes = new Uint8Array(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength);
  const { options } = context;
  // The declared content type is a hint only: the bytes decide, as for uploads.
  const format = attachment.contentType === "message/rfc822" ? "eml" : sniffFormat(bytes);
  switch (format) {
    case "pdf": {
      const limits = resolveLimits(options.limits);
      return fillScannedPages(bytes, await ingestPdf(bytes, { maxPages: limits.maxPages }), options);
    }
    case "docx":
      return ingestDocx(bytes, options);
    case "png":
    case "jpeg":
    case "tiff":
    case "webp":
      // Pictures referenced by the HTML body (logos, signatures) are decoration, not documents.
      return attachment.related ? [] : ingestImage(bytes, format, options);
    case "eml":
      return readMessage(bytes, { ...context, depth: context.depth + 1 });
    default:
      return [];
  }
}

async function readMessage(bytes: Uint8Array, context: EmlContext): Promise<Page[]> {
  const limits = resolveLimits(context.options.limits);
  assertWithinLimit(limits, "maxNestingDepth", context.depth, "levels of attached messages");
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await scanMimeShape(raw, limits, context.budget, context.depth);
  let mail: ParsedMail;
  try {
    // The splitter's node cap again, inside the parser itself: the scan above has already counted these nodes.
    mail = await simpleParser(raw, {
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
      maxHtmlLengthToParse: MAX_HTML_TO_PARSE,
      maxChildNodes: limits.maxMimeParts + 1,
    });
  } catch {
    throw new AnalysisError("unreadable", "The e-mail cannot be parsed: its MIME structure is damaged.");
  }
  context.budget.decodedBytes += (mail.text?.length ?? 0) + mail.attachments.reduce((n, a) => n + a.size, 0);
  assertWithinLimit(limits, "maxDecompressedBytes", context.budget.decodedBytes, "decoded bytes of the e-mail and its attachments");
  const pages = bodyPages(mail);
  for (const attachment of mail.attachments) {
    pages.push(...(await attachmentPages(attachment, context)));
    assertWithinLimit(limits, "maxPages", pages.length, "pages in the e-mail and its attachments");
  }
  return pages;
}

/** Reads an e-mail (RFC 5322, MIME) and its attachments into consecutively numbered pages. */
export async function ingestEml(bytes: Uint8Array, options: ImageIngestOptions = {}): Promise<Page[]> {
  const pages = await readMessage(bytes, { options, depth: 0, budget: { parts: 0, decodedBytes: 0 }, read: new Map() });
  if (pages.length === 0) throw new AnalysisError("empty", "The e-mail has no text and no readable attachments.");
  return pages.map((page, i) => ({ ...page, number: i + 1 }));
}
