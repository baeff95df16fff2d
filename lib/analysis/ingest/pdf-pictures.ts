import type { Pdfium } from "./pdfium-module";

/**
 * How much of a PDF page is covered by raster pictures, from the page's
 * objects as PDFium parsed them. A scan is one picture (or a few strips, or a
 * 1-bit mask) painted over most of the page; a logo, stamp or signature is a
 * small one. Callers ask only about pages whose text layer already looks too
 * thin to be the page.
 */

/** PDFium's object types (FPDF_PAGEOBJ_IMAGE, FPDF_PAGEOBJ_FORM). */
const IMAGE_OBJECT = 3;
const FORM_OBJECT = 5;
/** Forms drawn inside forms deeper than this are not looked into (PDFium itself stops nesting soon after). */
const MAX_FORM_DEPTH = 16;
/** Where FS_MATRIX is written in the scratch area. */
const MATRIX_AT = 0;

/** Area scale of the object's matrix (|ad − bc|): for an image, the area its unit square is painted on. */
function areaScale(pdfium: Pdfium, object: number): number {
  const matrix = pdfium.scratch + MATRIX_AT;
  if (!pdfium.api.FPDFPageObj_GetMatrix(object, matrix)) return 0;
  const [a, b, c, d] = [pdfium.float32(matrix), pdfium.float32(matrix + 4), pdfium.float32(matrix + 8), pdfium.float32(matrix + 12)];
  return Math.abs(a * d - b * c);
}

/** Painted picture area of a list of objects, forms' contents scaled by the form's matrix. */
function paintedArea(pdfium: Pdfium, count: number, objectAt: (index: number) => number, depth: number): number {
  const api = pdfium.api;
  let painted = 0;
  for (let i = 0; i < count; i++) {
    const object = objectAt(i);
    if (!object) continue;
    const type = api.FPDFPageObj_GetType(object);
    if (type === IMAGE_OBJECT) painted += areaScale(pdfium, object);
    else if (type === FORM_OBJECT && depth < MAX_FORM_DEPTH) {
      // A form's objects are in its own space: their areas scale by the form's matrix (determinants multiply).
      const scale = areaScale(pdfium, object);
      if (scale > 0) painted += scale * paintedArea(pdfium, api.FPDFFormObj_CountObjects(object), (j) => api.FPDFFormObj_GetObject(object, j), depth + 1);
    }
  }
  return painted;
}

/** Painted picture area over page area, summed over every image (strips add up), capped at 1; `pageArea` in square points. */
export function pictureShare(pdfium: Pdfium, page: number, pageArea: number): number {
  if (!(pageArea > 0)) return 0;
  const api = pdfium.api;
  const painted = paintedArea(pdfium, api.FPDFPage_CountObjects(page), (i) => api.FPDFPage_GetObject(page, i), 0);
  return Math.min(1, painted / pageArea);
}
