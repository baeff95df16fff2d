import { OPS, Util } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * How much of a PDF page is covered by raster pictures, from the page's drawing
 * operations. A scan is one picture (or a few strips, or a 1-bit mask) painted
 * over most of the page; a logo, stamp or signature is a small one. Reading the
 * operator list parses the page's whole content stream, so callers ask only
 * about pages whose text layer already looks too thin to be the page.
 */

type Matrix = number[];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** Area of the unit square (where PDF paints an image) under a matrix. */
function unitArea(m: Matrix): number {
  return Math.abs((m[0] ?? 0) * (m[3] ?? 0) - (m[1] ?? 0) * (m[2] ?? 0));
}

/** Painted picture area over page area, summed over every image (strips add up), capped at 1. */
async function pictureShare(page: PDFPageProxy): Promise<number> {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  if (!(pageArea > 0)) return 0;
  const { fnArray, argsArray } = await page.getOperatorList();
  let ctm = IDENTITY;
  const stack: Matrix[] = [];
  let painted = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const args = argsArray[i] as unknown[] | null;
    switch (fnArray[i]) {
      case OPS.save:
        stack.push(ctm);
        break;
      case OPS.restore:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.transform:
        ctm = Util.transform(ctm, args as Matrix);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(ctm);
        if (Array.isArray(args?.[0])) ctm = Util.transform(ctm, args[0] as Matrix);
        break;
      case OPS.paintFormXObjectEnd:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject:
        painted += unitArea(ctm);
        break;
      case OPS.paintImageXObjectRepeat: {
        // [objId, scaleX, scaleY, positions]: one image drawn at many places.
        const [, scaleX, scaleY, positions] = args as [unknown, number, number, ArrayLike<number>];
        painted += unitArea(ctm) * Math.abs(scaleX * scaleY) * (positions.length / 2);
        break;
      }
      case OPS.paintImageMaskXObjectRepeat: {
        const [, scaleX, skewX, skewY, scaleY, positions] = args as [unknown, number, number, number, number, ArrayLike<number>];
        painted += unitArea(ctm) * Math.abs(scaleX * scaleY - skewX * skewY) * (positions.length / 2);
        break;
      }
      case OPS.paintInlineImageXObjectGroup: {
        const [, map] = args as [unknown, { transform: Matrix }[]];
        for (const entry of map) painted += unitArea(Util.transform(ctm, entry.transform));
        break;
      }
      case OPS.paintImageMaskXObjectGroup: {
        const [images] = args as [{ transform: Matrix }[]];
        for (const image of images) painted += unitArea(Util.transform(ctm, image.transform));
        break;
      }
    }
  }
  return Math.min(1, painted / pageArea);
}

/** pictureShare, or 1 when the page's drawing cannot be read: OCR, which renders the page with poppler, may still read it. */
export async function pictureShareOrWhole(page: PDFPageProxy): Promise<number> {
  try {
    return await pictureShare(page);
  } catch {
    return 1;
  }
}
