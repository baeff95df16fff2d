import { AnalysisError } from "../errors";
import type { Page, Word } from "../types";
import { readZipDirectory, readZipEntry, type ZipEntry } from "./docx-zip";
import { parseDocumentXml, type DocxBlock } from "./docx-xml";
import { ingestImage, type ImageIngestOptions } from "./image";
import { A4, DEFAULT_MARGINS, Typesetter, type Margins, type PageDraft } from "./docx-typeset";
import { groupLines, orderLines } from "./layout";
import { assertWithinLimit, resolveLimits } from "./limits";
import { fixDigitConfusions } from "./ocr";
import { MIN_TEXT_LAYER_CHARACTERS } from "./ocr-pdf";
import { sniffFormat } from "./sniff";

/**
 * DOCX to pages. Word files carry no page geometry, so text is laid out the way
 * a simple typesetter would: A4 (or the section's size) with 1-inch margins,
 * paragraphs top to bottom, table cells side by side in their row. Pages end at
 * explicit breaks (page breaks, page-break-before, non-continuous section
 * breaks), at a page-sized picture (scans pasted one per page), and when the
 * page is full. A page that is only a picture is read by OCR.
 */
/** Relationship id → part name inside the archive, for internal targets only (never fetch external ones). */
function readRelationships(xml: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const m of xml.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attrs = m[1] ?? "";
    const id = /\bId="([^"]*)"/.exec(attrs)?.[1];
    const target = /\bTarget="([^"]*)"/.exec(attrs)?.[1];
    if (!id || !target || /TargetMode="External"/i.test(attrs)) continue;
    targets.set(id, target.startsWith("/") ? target.slice(1) : `word/${target}`);
  }
  return targets;
}

function textCharacters(words: Word[]): number {
  return words.reduce((n, w) => n + w.text.replace(/[^\p{L}\p{N}]/gu, "").length, 0);
}

function typeset(blocks: DocxBlock[], size: [number, number], margins: Margins): PageDraft[] {
  const setter = new Typesetter(size, margins);
  for (const block of blocks) {
    if (block.kind === "paragraph") setter.paragraph(block.text, block.fontSize, block.tabStops);
    else if (block.kind === "row") setter.row(block.cells, block.fontSize);
    else if (block.kind === "image") setter.image(block.relationshipId, block.heightPoints);
    else setter.breakPage();
  }
  return setter.pages.filter((p) => p.words.length > 0 || p.images.length > 0);
}

export async function ingestDocx(bytes: Uint8Array, options: ImageIngestOptions = {}): Promise<Page[]> {
  const limits = resolveLimits(options.limits);
  const entries = readZipDirectory(bytes, limits);
  const read = (entry: ZipEntry | undefined) => (entry ? new TextDecoder().decode(readZipEntry(bytes, entry)) : "");
  const documentEntry = entries.get("word/document.xml");
  if (!documentEntry) throw new AnalysisError("unreadable", "The Word document has no body (word/document.xml is missing).");
  const flow = parseDocumentXml(read(documentEntry));
  const relationships = readRelationships(read(entries.get("word/_rels/document.xml.rels")));
  const size = flow.pageSize ?? A4;
  const drafts = typeset(flow.blocks, size, flow.margins ?? DEFAULT_MARGINS);
  assertWithinLimit(limits, "maxPages", drafts.length, "pages in the Word document");

  const pages: Page[] = [];
  for (const draft of drafts) {
    const picture = draft.images.map((id) => entries.get(relationships.get(id) ?? "")).find((e) => e !== undefined);
    if (picture && textCharacters(draft.words) < MIN_TEXT_LAYER_CHARACTERS) {
      const image = readZipEntry(bytes, picture);
      const format = sniffFormat(image);
      if (format === "png" || format === "jpeg" || format === "tiff" || format === "webp") {
        pages.push(...(await ingestImage(image, format, { ...options, firstPageNumber: pages.length + 1 })));
        continue;
      }
    }
    // Word files made from scans carry the OCR's text, with its 1/l confusions.
    const lines = orderLines(groupLines(draft.words.map((w) => ({ ...w, text: fixDigitConfusions(w.text) }))));
    pages.push({ number: pages.length + 1, width: size[0], height: size[1], lines, source: "docx" });
  }
  if (pages.every((p) => p.lines.length === 0)) throw new AnalysisError("empty", "The Word document contains no text.");
  assertWithinLimit(limits, "maxPages", pages.length, "pages in the Word document");
  return pages;
}
