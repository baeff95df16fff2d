/**
 * Every match of a global pattern in a text, as String.prototype.matchAll gives
 * them. matchAll clones its pattern on every call (a RegExp construction), which
 * costs far more than matching on the short lines the engine scans, most of
 * which hold no match; this reuses the one compiled pattern.
 */
export function allMatches(pattern: RegExp, text: string): RegExpExecArray[] {
  if (!pattern.global) throw new TypeError("allMatches needs a global (g) pattern");
  const found: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    found.push(m);
    // As matchAll: an empty match moves on by one character (one code point with the u or v flag).
    if (m[0].length === 0) pattern.lastIndex = nextIndex(text, pattern.lastIndex, pattern.unicode || pattern.flags.includes("v"));
  }
  pattern.lastIndex = 0;
  return found;
}

function nextIndex(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  return index + ((text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1);
}
