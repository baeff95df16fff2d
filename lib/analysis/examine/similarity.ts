/** Normalised edit-distance similarity: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - editDistance(a, b) / longest;
}

/** Levenshtein distance with one rolling row. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The fewest edits that turn `needle` into some substring of `haystack`
 * (Sellers' algorithm): finds "YOKOHAMA" in OCR's "YOIKOHAMAJPAN" at 1.
 */
export function substringDistance(haystack: string, needle: string): number {
  if (!needle) return 0;
  let previous = new Array<number>(haystack.length + 1).fill(0);
  for (let i = 1; i <= needle.length; i++) {
    const current = [i];
    for (let j = 1; j <= haystack.length; j++) {
      const cost = needle[i - 1] === haystack[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return Math.min(...previous);
}

/** OCR's usual confusions folded together, so "ILCAEOO221" and "1LCAE00221" compare equal. */
export function foldConfusables(text: string): string {
  return text.toUpperCase().replace(/O/g, "0").replace(/[IL|]/g, "1").replace(/S/g, "5").replace(/B/g, "8").replace(/Z/g, "2");
}

/**
 * A reference number as OCR may have read it: without spaces, dashes, slashes
 * or case, confusable letters and digits folded (O/Q/D/0, I/l/!/1, S/5, B/8,
 * Z/2, G/6), and "J", which OCR reads for ")" and the reverse, set aside. Two
 * references with the same key are one reference: a document does not
 * conflict with another because a scanner saw BKKJEAZ6O412 for BKKJEA260412.
 */
export function referenceKey(value: string): string {
  const folded = value.toUpperCase().replace(/[J)]/g, "").replace(/[QD]/g, "0").replace(/!/g, "1").replace(/G/g, "6");
  return foldConfusables(folded.replace(/[^A-Z0-9|]/g, ""));
}
