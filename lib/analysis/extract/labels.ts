/**
 * Finds labels on lines. All synonyms of LABEL_SYNONYMS and STOP_LABELS are
 * put in a trie of their words; each line is read word by word once, taking
 * the longest synonym at each word.
 * A label counts at the start of a line (after an optional box number such as
 * "5." or "(3)"), or inside a line when a colon follows it. One-word labels
 * ("Date", "To", "Goods") are common words, so they count only with a colon
 * or when they are the whole line (a box title).
 */
import type { IndexedLine } from "./doc-index";
import { LABEL_SYNONYMS, STOP_LABELS } from "./label-vocab";

export interface LabelHit {
  /** Semantic labels this synonym stands for (empty for stop labels). */
  keys: readonly string[];
  line: IndexedLine;
  /** Where the label (with its box number) starts in the line. */
  start: number;
  /** Where the value may start: after the label and its separators. */
  valueStart: number;
  colon: boolean;
}

/** A caption printed in brackets, the whole line: "(Port of Loading)", "(Consignee (name and address))". */
const BRACKETED = /^\(.*\)$/;
/** A box number or letter before a title at the start of a line: "5. ", "(3) ", "A) ". */
const LINE_PREFIX = /^(?:\(?\d{1,2}[.)]\s*|[A-Z]\)\s+)/;
/**
 * After a label: the bracket closing one the label opened ("Consignee (Name and Address):"), a plural "(S)",
 * a parenthetical note ("(or order)", "Temp. (C)", or "(name" wrapping to the next line), an abbreviation's full stop
 * ("No.:"), a colon, other separators.
 */
const SEPARATOR = /(?:\))?(?:\s*\(S\))?(?:\.(?=\s*\())?(?:\s*\([^)]{1,60}\)|\s*\([^)]{0,40}$)?(?:\s*\.)?\s*([:：])?[\s.:#\-–]*/y;
/** What may stand between the words of one label ("B/L", "DOC. CREDIT", "ORGANIZATION(S)"): white space and these. */
const JOINER_CHARS: ReadonlySet<string> = new Set([..." ./&'():-"]);
const WHITE_SPACE = /\s/;
const TOKEN = /[A-Z0-9]+/g;
const SLASH = /\s*\/\s*/y;

/** Labels this short ("L/C", "B/L", "P/O") are as ambiguous as one word. */
const SHORT_LABEL = 3;
/** Weak labels that still count inside a line before a number ("MEASUREMENT 90.000 M3"). */
const NUMERIC_KEYS = new Set(["measurement", "gross_weight", "net_weight", "tare_weight"]);

/** Forms of address that only ever open a party block ("Messrs. LAGOON FOODS LTD"), strong though one word. */
const ADDRESS_FORMS: ReadonlySet<string> = new Set(["MESSRS"]);

interface Synonym {
  keys: string[];
  weak: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  synonym?: Synonym;
}

function tokensOf(synonym: string): string[] {
  return synonym.toUpperCase().match(TOKEN) ?? [];
}

/** All synonyms in a trie of their words, so each line is read word by word once. */
function buildTrie(): TrieNode {
  const root: TrieNode = { next: new Map() };
  const add = (synonym: string, key: string | undefined) => {
    const tokens = tokensOf(synonym);
    if (tokens.length === 0) return;
    let node = root;
    for (const token of tokens) {
      let child = node.next.get(token);
      if (!child) node.next.set(token, (child = { next: new Map() }));
      node = child;
    }
    node.synonym ??= { keys: [], weak: (tokens.length === 1 && !ADDRESS_FORMS.has(tokens[0]!)) || tokens.join("").length <= SHORT_LABEL };
    if (key && !node.synonym.keys.includes(key)) node.synonym.keys.push(key);
  };
  for (const [key, synonyms] of Object.entries(LABEL_SYNONYMS)) for (const s of synonyms) add(s, key);
  for (const s of STOP_LABELS) add(s, undefined);
  return root;
}

const TRIE = buildTrie();

interface Token {
  text: string;
  start: number;
  end: number;
}

interface Match {
  synonym: Synonym;
  /** End of the label's last word. */
  end: number;
  /** End of the separators after it. */
  valueStart: number;
  colon: boolean;
}

/** The trie node after `token`, or after its singular: "B/Ls", "Nos", "Numbers" are read as their vocabulary's "B/L", "No", "Number". */
function childOf(node: TrieNode, token: string): TrieNode | undefined {
  return node.next.get(token) ?? (token.length >= 2 && token.endsWith("S") ? node.next.get(token.slice(0, -1)) : undefined);
}

/** The longest synonym starting at token `i`, with the separators after it. */
function matchAt(upper: string, tokens: Token[], i: number): Match | undefined {
  let node: TrieNode | undefined = TRIE;
  let synonym: Synonym | undefined;
  let end = 0;
  for (let j = i; j < tokens.length; j++) {
    if (j > i && !isJoiner(upper, tokens[j - 1]!.end, tokens[j]!.start)) break;
    node = childOf(node, tokens[j]!.text);
    if (!node) break;
    if (node.synonym && !upper.startsWith("'S", tokens[j]!.end)) {
      synonym = node.synonym;
      end = tokens[j]!.end;
    }
  }
  if (!synonym) return undefined;
  SEPARATOR.lastIndex = end;
  const separator = SEPARATOR.exec(upper)!;
  return { synonym, end, valueStart: SEPARATOR.lastIndex, colon: separator[1] !== undefined };
}

/** Whether upper[from, to) holds only joiner characters (no substring is made: this runs for every token). */
function isJoiner(upper: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!JOINER_CHARS.has(upper[k]!) && !WHITE_SPACE.test(upper[k]!)) return false;
  return true;
}

/** A bare title line ("Shipper", "9. Marks and Nos:") with nothing after it but a speck a scan read as a comma or quote ("POL,"). */
const SPECK_TAIL = /^[\s.,;'‘’`]*$/;
function isWholeLine(line: IndexedLine, end: number): boolean {
  return end >= line.upper.length || SPECK_TAIL.test(line.upper.slice(end));
}

/** "No. UA/PC/2047474": an abbreviated one-word label followed by a reference (four or more characters with a digit). */
const ABBREVIATED_VALUE = /^\s*\.\s*(?=\S*\d)\S{4,}/;

/** Inside a line, a label without a colon counts when a number follows ("GROSS WEIGHT 45,270 KGS"). */
const NUMBER_NEXT = /^\d/;
/** A multi-word label inside a line counts before a number or a reference ("L/C No. BOSLC2428", "GROSS WEIGHT 45,270"). */
const REFERENCE_NEXT = /^[A-Z0-9][A-Z0-9/.-]*\d/;

/** "Buyer / Bill to", "Notify / Consignee:": a second label joined by a slash extends the first. */
function extendJoined(upper: string, tokens: Token[], at: number): Match | undefined {
  SLASH.lastIndex = at;
  if (!SLASH.exec(upper)) return undefined;
  const next = tokens.findIndex((t) => t.start === SLASH.lastIndex);
  return next < 0 ? undefined : matchAt(upper, tokens, next);
}

function isAccepted(line: IndexedLine, match: Match, start: number, boxed: boolean): boolean {
  const { synonym, colon, valueStart } = match;
  const rest = line.upper.slice(valueStart);
  if (start === 0) {
    if (boxed) return colon || isWholeLine(line, valueStart);
    const abbreviated = synonym.weak && ABBREVIATED_VALUE.test(line.upper.slice(match.end));
    // A one-word line ending in a full stop ("Carrier.") ends a sentence; it is no title. A unit after the stop ("Temp. (C)") makes it an abbreviation.
    const after = line.upper.slice(match.end, valueStart);
    const sentenceEnd = synonym.weak && after.includes(".") && !after.includes("(") && match.end - start > SHORT_LABEL;
    return !synonym.weak || colon || abbreviated || (isWholeLine(line, valueStart) && !sentenceEnd);
  }
  if (line.upper[start - 1] !== " ") return false;
  if (colon) return true;
  return synonym.weak ? NUMBER_NEXT.test(rest) && synonym.keys.some((k) => NUMERIC_KEYS.has(k)) : REFERENCE_NEXT.test(rest);
}

/** A line of one to five words ending in a colon, and nothing after it; in lower case it is the wrapped tail of the label above ("and address):"). */
const UNKNOWN_TITLE = /^[A-Z][A-Za-z.'&()/-]*(?:\s+[A-Za-z.'&()/-]+){0,4}\s*[:：]$/;

/** Every label on `line`, left to right. */
export function findLabels(line: IndexedLine): LabelHit[] {
  const { upper } = line;
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(upper); m; m = TOKEN.exec(upper)) tokens.push({ text: m[0], start: m.index, end: TOKEN.lastIndex });
  const bracketed = BRACKETED.test(upper.trim());
  const prefix = bracketed ? "(" : (LINE_PREFIX.exec(upper)?.[0] ?? "");
  const hits: LabelHit[] = [];
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.start < from || upper[token.start - 1] === "'" || !childOf(TRIE, token.text)) continue;
    const match = matchAt(upper, tokens, i);
    if (!match) continue;
    const start = prefix && token.start === prefix.length ? 0 : token.start;
    const joined = extendJoined(upper, tokens, match.valueStart);
    const joinedMatch = joined ? { ...match, valueStart: joined.valueStart, colon: match.colon || joined.colon } : match;
    // A bracketed line is a caption whole: what follows its title ("by On-carrier)") is no value.
    const full = bracketed ? { ...joinedMatch, valueStart: upper.length } : joinedMatch;
    if (!isAccepted(line, full, start, start === 0 && /^\(?\d/.test(prefix))) continue;
    const keys = joined ? [...new Set([...match.synonym.keys, ...joined.synonym.keys])] : match.synonym.keys;
    hits.push({ keys, line, start, valueStart: full.valueStart, colon: full.colon });
    from = full.valueStart;
  }
  // A short title ending in a colon is a label even when its wording is unknown ("Load Port:"): never a value.
  if (!hits.some((h) => h.start === 0) && UNKNOWN_TITLE.test(line.text)) hits.unshift({ keys: [], line, start: 0, valueStart: line.text.length, colon: true });
  return hits;
}
