import type { OcrRawPage, OcrWord } from "./ocr-tesseract";

/**
 * Turns tesseract's boxes (image pixels, in the frame of the scan as it lies)
 * into boxes on the upright, deskewed page. Tesseract already reads sideways and
 * upside-down text (page segmentation with orientation detection) but reports
 * boxes in the image's frame; the direction in which the words of a line follow
 * each other tells which way the page lies, at no extra OCR cost.
 */
export type Orientation = 0 | 90 | 180 | 270;

/** A word box on the upright page, still in pixels. */
export interface UprightWord extends OcrWord {
  lineIndex: number;
}

export interface UprightPage {
  width: number;
  height: number;
  /** Clockwise rotation the scan had; the page below is turned back by it. */
  orientation: Orientation;
  /** Skew that was removed, in degrees (positive = lines rose to the right). */
  skewDegrees: number;
  lines: UprightWord[][];
}

/** Skew below this is left alone: moving boxes by a fraction of a pixel only adds noise. */
const MIN_SKEW_DEGREES = 0.2;
/** Skew beyond this is not a skew but a misread line; such lines do not vote. */
const MAX_SKEW_DEGREES = 10;
const MIN_WORDS_FOR_SKEW = 3;

function centre(word: OcrWord): [number, number] {
  return [word.left + word.width / 2, word.top + word.height / 2];
}

/** Which way the text runs, voted by every pair of neighbouring words weighted by their distance. */
export function detectOrientation(page: OcrRawPage): Orientation {
  const votes = { right: 0, left: 0, down: 0, up: 0 };
  for (const line of page.lines) {
    for (let i = 1; i < line.length; i++) {
      const [x0, y0] = centre(line[i - 1]!);
      const [x1, y1] = centre(line[i]!);
      const dx = x1 - x0;
      const dy = y1 - y0;
      if (Math.abs(dx) >= Math.abs(dy)) votes[dx >= 0 ? "right" : "left"] += Math.abs(dx);
      else votes[dy >= 0 ? "down" : "up"] += Math.abs(dy);
    }
  }
  const best = (Object.keys(votes) as (keyof typeof votes)[]).reduce((a, b) => (votes[b] > votes[a] ? b : a), "right");
  // Text running down the image means the page was turned a quarter clockwise.
  return ({ right: 0, down: 90, left: 180, up: 270 } as const)[best];
}

function turnUpright(word: OcrWord, orientation: Orientation, width: number, height: number): OcrWord {
  const { left: x, top: y, width: w, height: h } = word;
  if (orientation === 180) return { ...word, left: width - (x + w), top: height - (y + h) };
  if (orientation === 90) return { ...word, left: y, top: width - (x + w), width: h, height: w };
  if (orientation === 270) return { ...word, left: height - (y + h), top: x, width: h, height: w };
  return word;
}

/** The median slope of word bottoms along lines with enough words, as an angle in degrees. */
export function estimateSkewDegrees(lines: OcrWord[][]): number {
  const angles: number[] = [];
  for (const line of lines) {
    if (line.length < MIN_WORDS_FOR_SKEW) continue;
    const points = line.map((w) => [w.left + w.width / 2, w.top + w.height] as const);
    const meanX = points.reduce((s, [x]) => s + x, 0) / points.length;
    const meanY = points.reduce((s, [, y]) => s + y, 0) / points.length;
    let sxy = 0;
    let sxx = 0;
    for (const [x, y] of points) {
      sxy += (x - meanX) * (y - meanY);
      sxx += (x - meanX) ** 2;
    }
    if (sxx === 0) continue;
    // Image y grows downward: a negative slope is a line rising to the right.
    const degrees = (-Math.atan(sxy / sxx) * 180) / Math.PI;
    if (Math.abs(degrees) <= MAX_SKEW_DEGREES) angles.push(degrees);
  }
  if (angles.length === 0) return 0;
  angles.sort((a, b) => a - b);
  return angles[Math.floor(angles.length / 2)]!;
}

function rotateAbout(word: OcrWord, degrees: number, cx: number, cy: number): OcrWord {
  const radians = (degrees * Math.PI) / 180;
  const [x, y] = centre(word);
  // Turning the page clockwise by the skew brings a line that rose to the right back to level.
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const nx = cx + (x - cx) * cos - (y - cy) * sin;
  const ny = cy + (x - cx) * sin + (y - cy) * cos;
  return { ...word, left: nx - word.width / 2, top: ny - word.height / 2 };
}

/** The page turned upright and deskewed, with each word keeping its tesseract line. */
export function uprightPage(page: OcrRawPage): UprightPage {
  const orientation = detectOrientation(page);
  const sideways = orientation === 90 || orientation === 270;
  const width = sideways ? page.height : page.width;
  const height = sideways ? page.width : page.height;
  const turned = page.lines.map((line) => line.map((w) => turnUpright(w, orientation, page.width, page.height)));
  const skew = estimateSkewDegrees(turned);
  const level = Math.abs(skew) < MIN_SKEW_DEGREES ? turned : turned.map((line) => line.map((w) => rotateAbout(w, skew, width / 2, height / 2)));
  return {
    width,
    height,
    orientation,
    skewDegrees: Math.abs(skew) < MIN_SKEW_DEGREES ? 0 : skew,
    lines: level.map((line, lineIndex) => line.map((w) => ({ ...w, lineIndex }))),
  };
}
