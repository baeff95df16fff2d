import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as fontkit from "fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { woffToTtf } from "@/lib/fonts/woff";
import type { Report } from "./report";

/**
 * The discrepancy report as a printable A4 PDF a bank file can keep. Its
 * fonts (Arimo, from @fontsource) are embedded whole, so it prints alike
 * everywhere and its text can be searched and copied. pdf-lib's subsetting
 * needs fontkit 1's API; fontkit 2 embeds the font file as it is.
 */
const FONT_FILES = { regular: "@fontsource/arimo/files/arimo-latin-400-normal.woff", bold: "@fontsource/arimo/files/arimo-latin-700-normal.woff" };

/**
 * Fonts are data files, read from the installed package under the project's
 * root (the server and the tests run there): inside the Next.js bundle,
 * require.resolve answers a module id rather than a path.
 */
function fontFile(name: string): Buffer {
  return readFileSync(path.join(process.cwd(), "node_modules", name));
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const WIDTH = A4[0] - 2 * MARGIN;
const BODY = 9.5;
const LEADING = 1.35;
const INK = rgb(0.11, 0.14, 0.19);
const MUTED = rgb(0.36, 0.4, 0.46);
const RULE = rgb(0.8, 0.82, 0.85);
/** A finding's head, message, documents and decision: the lines kept on one page. */
const FINDING_MIN_HEIGHT = 6 * BODY * LEADING;

let fontBytes: { regular: Buffer; bold: Buffer } | undefined;
function fonts(): { regular: Buffer; bold: Buffer } {
  fontBytes ??= {
    regular: woffToTtf(fontFile(FONT_FILES.regular)),
    bold: woffToTtf(fontFile(FONT_FILES.bold)),
  };
  return fontBytes;
}

/** Lines of `text` that fit `width` at `size`, broken between words (a word longer than the line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.replace(/\s+/g, " ").trim().split(" ")) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [""];
}

/** A top-down writer over pages: it starts a new page when the next block does not fit. */
class Writer {
  private page!: PDFPage;
  private y = 0;
  private pageCount = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly footer: string,
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage(A4);
    this.pageCount += 1;
    this.y = A4[1] - MARGIN;
    this.page.drawText(`${this.footer} · page ${this.pageCount}`, { x: MARGIN, y: MARGIN / 2, size: 7.5, font: this.regular, color: MUTED });
  }

  private room(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(text: string, options: { size?: number; bold?: boolean; color?: typeof INK; indent?: number; after?: number } = {}): void {
    const size = options.size ?? BODY;
    const font = options.bold ? this.bold : this.regular;
    const indent = options.indent ?? 0;
    for (const line of wrap(text, font, size, WIDTH - indent)) {
      this.room(size * LEADING);
      this.y -= size * LEADING;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.color ?? INK });
    }
    this.y -= options.after ?? 0;
  }

  /** Label and value side by side; the value wraps in its column. */
  pair(label: string, value: string, labelWidth = 150): void {
    const lines = wrap(value, this.regular, BODY, WIDTH - labelWidth);
    this.room(lines.length * BODY * LEADING);
    this.y -= BODY * LEADING;
    this.page.drawText(label, { x: MARGIN, y: this.y, size: BODY, font: this.bold, color: MUTED });
    lines.forEach((line, i) => {
      if (i > 0) this.y -= BODY * LEADING;
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y, size: BODY, font: this.regular, color: INK });
    });
  }

  heading(text: string): void {
    this.room(40);
    this.y -= 10;
    this.text(text, { size: 12.5, bold: true, after: 2 });
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + WIDTH, y: this.y }, thickness: 0.6, color: RULE });
    this.y -= 2;
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** Starts a new page unless `points` still fit: a short block is kept together. */
  keep(points: number): void {
    this.room(points);
  }
}

export async function renderReportPdf(report: Report): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit as unknown as Parameters<PDFDocument["registerFontkit"]>[0]);
  const bytes = fonts();
  const [regular, bold] = [await doc.embedFont(bytes.regular, { subset: false }), await doc.embedFont(bytes.bold, { subset: false })];
  doc.setTitle(`Discrepancy report: ${report.setName}`);
  doc.setProducer("Shipshape");
  const w = new Writer(doc, regular, bold, `Shipshape discrepancy report · ${report.setName}`);

  w.text("Discrepancy report", { size: 18, bold: true, after: 4 });
  w.text(report.setName, { size: 12, after: 6 });
  w.pair("Presentation status", report.status);
  w.pair("Examined as of", `${report.presentationDate} (presentation date), under UCP 600 and ISBP 821`);
  w.pair("Report produced", `${report.generatedAt} by ${report.generatedBy}`);

  w.heading("Credit terms examined");
  if (report.credit.length === 0) w.text("No letter of credit was among the documents of this set.", { color: MUTED });
  for (const [label, value] of report.credit) w.pair(label, value);

  const open = report.findings.filter((f) => f.decision === "Open").length;
  w.heading(`Findings (${report.findings.length}${open ? `, ${open} awaiting a decision` : ""})`);
  if (report.findings.length === 0) w.text("No discrepancies: the documents agree with each other and with the credit.", { color: MUTED });
  report.findings.forEach((f, i) => {
    w.gap(4);
    w.keep(FINDING_MIN_HEIGHT);
    w.text(`${i + 1}. ${f.severity} · ${f.reference}`, { bold: true });
    w.text(f.message, { indent: 12 });
    if (f.documents) w.text(`Documents: ${f.documents}`, { indent: 12, color: MUTED });
    if (f.expected) w.text(`Expected: ${f.expected}`, { indent: 12, color: MUTED });
    if (f.found) w.text(`Found: ${f.found}`, { indent: 12, color: MUTED });
    const decided = f.decidedBy ? ` (${f.decidedBy}, ${f.decidedAt})` : "";
    w.text(`Decision: ${f.decision}${decided}`, { indent: 12, bold: f.decision !== "no decision needed" });
    if (f.note) w.text(`Note: ${f.note}`, { indent: 12 });
  });

  w.heading("Documents examined");
  for (const d of report.documents) w.pair(d.document, `${d.fileName} · reviewed: ${d.reviewed}`, 190);

  if (report.corrections.length > 0) {
    w.heading("Values corrected by the checker");
    for (const c of report.corrections) w.text(`${c.field} on the ${c.document}: ${c.value} (read as ${c.original}) · ${c.by}, ${c.at}`);
  }
  return doc.save();
}
