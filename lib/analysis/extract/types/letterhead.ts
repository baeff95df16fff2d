/**
 * The issuer's letterhead at the top of the first page: its company name, and
 * the address printed under it in the name's own column. Contacts and codes
 * set beside the address (telephone, e-mail, tax numbers in a right-hand
 * column) and a logo's initials are artwork of the letterhead, not address.
 */
import { cleanValue } from "../../normalize/text";
import type { ExtractionContext } from "../context";
import { lineHeight, type IndexedLine } from "../doc-index";
import { startsWithLabel } from "../document";
import { CONFIDENCE, foundOf, partOf, type Part } from "../found";
import { isContactLine, isInitials } from "../names";

/** Lines of the letterhead's address read at most. */
const LETTERHEAD_LINES = 4;
/** The letterhead lies within this many rows of the page top. */
const TOP_ROWS = 14;
/** A line of the name's column starts within this many font sizes of the name, or is centred under it. */
const COLUMN_SLACK_EM = 2;
/** An address line follows the one above within this many line heights. */
const MAX_GAP_LINES = 2;
/** A company name carries its legal form (or a trading word). */
export const COMPANY_NAME =
  /\b(?:INC|LTD|LLC|L\.L\.C|JSC|W\.L\.L|CO|CORP|CORPORATION|COMPANY|LIMITED|GMBH|AG|S\.?A|SARL|S\.?P\.?A|B\.?V|N\.?V|PLC|PTE|PT|PVT|BHD|BERHAD|SDN|SRL|OY|AB|AS|KG|PTY|SAS|LLP|FZE|FZCO|SIA|OOO|KFT|LDA|A\.S|LTDA|TRADING|EXPORTS?|IMPORTS?|INDUSTRIES|ENTERPRISES?|GROUP|MILLS)\.?$/i;
const DOCUMENT_TITLE = /\b(?:INVOICE|PACKING|CERTIFICATE|CONTRACT|BILL OF LADING|CONFIRMATION|WAYBILL|LIST)\b/i;

/** Lines of the first page above its first label or document title. */
function firstPageTop(ctx: ExtractionContext): IndexedLine[] {
  const first = ctx.doc.lines[0]!;
  const lines: IndexedLine[] = [];
  for (const line of ctx.doc.lines) {
    if (line.page !== first.page || line.row - first.row >= TOP_ROWS || startsWithLabel(ctx.doc, line) || DOCUMENT_TITLE.test(line.text)) break;
    lines.push(line);
  }
  return lines;
}

/** Whether `line` is set in the column of `name`: aligned with it on the left, or centred under it. */
function inNameColumn(name: IndexedLine, line: IndexedLine): boolean {
  const slack = COLUMN_SLACK_EM * lineHeight(name);
  const centre = (line.x0 + line.x1) / 2;
  return Math.abs(line.x0 - name.x0) < slack || (centre > name.x0 - slack && centre < name.x1 + slack);
}

/** "MGF LOT C4, ...": a logo's initials run into the first address line are the initials of the name's words. */
function withoutLogo(part: Part, name: string): Part {
  const initials = name.split(/\s+/).map((w) => w[0] ?? "").join("").toUpperCase();
  const m = /^\s*([A-Z]{2,4})\s+/.exec(part.line.text.slice(part.start, part.end));
  return m && initials.startsWith(m[1]!) ? { ...part, start: part.start + m[0].length } : part;
}

/** The issuer's name (and address below it) from the letterhead, when it is a company name. */
export function readLetterhead(ctx: ExtractionContext, key: string, addressKey?: string): void {
  if (ctx.has(key)) return;
  const top = firstPageTop(ctx);
  const name = top.find((l) => COMPANY_NAME.test(cleanValue(l.text)));
  if (!name) return;
  const nameText = cleanValue(name.text);
  ctx.set(key, nameText, foundOf([partOf(name)], CONFIDENCE.scan));
  if (!addressKey) return;
  const address: Part[] = [];
  let previous = name;
  for (const line of top.filter((l) => l.row > name.row && inNameColumn(name, l) && !isInitials(l.text))) {
    if (address.length === LETTERHEAD_LINES || line.row === previous.row) break;
    if (line.y0 - previous.y1 > MAX_GAP_LINES * lineHeight(line) || isContactLine(line.text)) break;
    address.push(withoutLogo(partOf(line), nameText));
    previous = line;
  }
  if (address.length > 0) ctx.set(addressKey, address.map((p) => cleanValue(p.line.text.slice(p.start, p.end))).join(" "), foundOf(address, CONFIDENCE.scan));
}
