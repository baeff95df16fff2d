import { createCanvas, type Canvas } from "@napi-rs/canvas";
import { docx, makeDocx } from "@/test/fixtures/formats/docx-fixtures";
import { makeEml } from "@/test/fixtures/formats/eml-fixtures";
import { makeMultiPageTiff, makeTextPdf } from "@/test/fixtures/formats/scan-fixtures";

/**
 * One small valid file per format for `npm run fuzz` to mutate. Images are a
 * few words on a small canvas, so that a mutant that still decodes costs a
 * short OCR and the run measures robustness rather than OCR time.
 */
export type FuzzFormat = "pdf" | "docx" | "eml" | "png" | "jpeg" | "tiff" | "webp";
export const FUZZ_FORMATS: readonly FuzzFormat[] = ["pdf", "docx", "eml", "png", "jpeg", "tiff", "webp"];

const LINES = ["COMMERCIAL INVOICE", "Invoice No: INV-5512", "Total: USD 12,400.00"];
const IMAGE_WIDTH = 360;
const IMAGE_HEIGHT = 120;

function drawnText(): Canvas {
  const canvas = createCanvas(IMAGE_WIDTH, IMAGE_HEIGHT);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, IMAGE_WIDTH, IMAGE_HEIGHT);
  ctx.fillStyle = "#000";
  ctx.font = "20px sans-serif";
  LINES.forEach((line, i) => ctx.fillText(line, 10, 30 + i * 32));
  return canvas;
}

/** An 8-bit binary PGM of the canvas's grey levels: what makeMultiPageTiff takes. */
function pgmOf(canvas: Canvas): Uint8Array {
  const rgba = canvas.getContext("2d").getImageData(0, 0, IMAGE_WIDTH, IMAGE_HEIGHT).data;
  const grey = new Uint8Array(IMAGE_WIDTH * IMAGE_HEIGHT);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;
  const header = new TextEncoder().encode(`P5\n${IMAGE_WIDTH} ${IMAGE_HEIGHT}\n255\n`);
  return new Uint8Array(Buffer.concat([header, grey]));
}

/**
 * The PDF with its creation date and file identifier (PDFKit writes the time
 * of the run) set to fixed values of the same length, so that the offsets
 * still hold and a case is the same in every run (npm run fuzz:replay).
 */
function fixedPdf(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf)
    .toString("latin1")
    .replace(/\(D:\d{14}Z\)/g, "(D:20240312093000Z)")
    .replace(/\/ID \[<([0-9a-f]+)> <([0-9a-f]+)>\]/i, (_match, first: string, second: string) => `/ID [<${"0".repeat(first.length)}> <${"0".repeat(second.length)}>]`);
  return new Uint8Array(Buffer.from(text, "latin1"));
}

export async function makeSeeds(): Promise<Record<FuzzFormat, Uint8Array>> {
  const pdf = fixedPdf(await makeTextPdf([{ lines: LINES }, { lines: ["PACKING LIST", "Cartons: 320"] }]));
  const canvas = drawnText();
  const png = new Uint8Array(await canvas.encode("png"));
  return {
    pdf,
    docx: makeDocx([docx.paragraph(LINES[0]!, { size: 16 }), docx.table([["Item", "Qty"], ["Cotton", "320"]]), docx.pageBreak(), docx.paragraph(LINES[2]!)]),
    eml: new TextEncoder().encode(
      makeEml({
        subject: "Documents under LC58213409",
        body: LINES.join("\n"),
        attachments: [
          { filename: "invoice.pdf", contentType: "application/pdf", data: pdf },
          { filename: "scan.png", contentType: "image/png", data: png },
          { message: makeEml({ subject: "Fwd: B/L", body: "B/L No: MAEU241100" }, "inner") },
        ],
      }),
    ),
    png,
    jpeg: new Uint8Array(await canvas.encode("jpeg", 85)),
    tiff: makeMultiPageTiff([pgmOf(canvas), pgmOf(canvas)], 150),
    webp: new Uint8Array(await canvas.encode("webp", 85)),
  };
}
