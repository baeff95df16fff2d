/**
 * Party blocks: the label's value lines, first line the name, the rest the
 * address as printed (lines joined by a space), up to the first contact line.
 * "TO ORDER OF" on its own line joins the next one (the name is the whole
 * order clause), and so does a legal form wrapped onto a line of its own. An "Address:" label right after a
 * one-line name supplies the address.
 */
import type { Doc } from "./document";
import { columnEnd, findLabelled, linesBelow, valueOfHit, xAt } from "./find-value";
import { foundOf, partOf, type Found, type Part } from "./found";
import type { LabelHit } from "./labels";
import { isContactLine, isInitials, isLegalFormOnly } from "./names";
import { cleanValue } from "../normalize/text";
import { COMPANY_NAME } from "./types/letterhead";

/** Lines a party block may span (name, street, city, country, telephone). */
const MAX_PARTY_LINES = 6;
const ORDER_CLAUSE = /^(?:TO\s+)?(?:THE\s+)?ORDER(?:\s+OF)?[:,]?$/i;
/** Box notes that are not the party ("It is agreed that no responsibility shall attach..."). */
const BOX_NOTE = /\b(?:RESPONSIBILITY|AGREED|CLAUSE|SEE REVERSE|NOT BE LIABLE|ONLY IF)\b/i;
/** A company name ends at its legal form; a comma after it starts the address ("ACME INC., 4410 MAIN ST"). */
const NAME_THEN_ADDRESS =
  /^(.*?\b(?:INC|LTD|LLC|L\.L\.C|JSC|W\.L\.L|CO|CORP|CORPORATION|COMPANY|LIMITED|GMBH|AG|S\.?A|SARL|S\.?P\.?A|B\.?V|N\.?V|PLC|PTE|PT|PVT|BHD|BERHAD|SDN|SRL|OY|AB|AS|KG|PTY|S\.A\.S|LLP|FZE|FZCO|SIA|OOO|KFT|LDA|A\.S|S\.A\.S|A\.Ş|LTDA|EIRELI|S\/A|TRADING|EST)\.?),\s+(.+)$/i;

/** "TO THE ORDER OF GULFSTAR" / "COMMERCIAL BANK P.J.S.C.": an order clause names a bank, whose name may wrap. */
const ORDER_OF = /^(?:TO\s+)?(?:THE\s+)?ORDER\s+OF\s+\S/i;
/** The word a bank's or company's name ends with. */
const NAME_END = /\b(?:BANK|BANQUE|BANCO|BANCA|LTD|LIMITED|INC|LLC|PLC|AG|AS|SA|S\.A|NV|N\.V|BV|B\.V|BHD|BERHAD|P\.?J\.?S\.?C|B\.?S\.?C|S\.?A\.?O\.?G|CO)\.?$/i;

function wrapsOrderClause(first: string, second: string): boolean {
  return ORDER_OF.test(first) && !NAME_END.test(first) && !/\d/.test(second) && NAME_END.test(second);
}

/** "ANATOLIA PULSES" / "TRADING A.S.": a name without its legal form, then a line without digits that ends with one. */
function wrapsName(first: string, second: string): boolean {
  return !COMPANY_NAME.test(first) && !/\d/.test(second) && second.split(/\s+/).length <= 3 && COMPANY_NAME.test(second);
}

export interface PartyFound {
  name: string;
  nameFound: Found;
  address?: string;
  addressFound?: Found;
}

/** The block's lines up to its first contact line (telephone, e-mail), without notes or a logo's initials. */
function blockLines(found: Found): Part[] {
  const textOf = (p: Part) => p.line.text.slice(p.start, p.end);
  const contact = found.parts.findIndex((p, i) => i > 0 && isContactLine(textOf(p)));
  const parts = contact < 0 ? found.parts : found.parts.slice(0, contact);
  // "BHD", "LLC" alone on a line are a wrapped legal form, not a logo's initials.
  return parts.filter((p) => /[A-Za-z]/.test(textOf(p)) && !BOX_NOTE.test(p.line.text) && (!isInitials(textOf(p)) || isLegalFormOnly(textOf(p))));
}

function splitParty(doc: Doc, found: Found): PartyFound | undefined {
  const parts = blockLines(found);
  if (parts.length === 0) return undefined;
  let nameCount = 1;
  const lineText = (i: number) => cleanValue(parts[i]!.line.text.slice(parts[i]!.start, parts[i]!.end));
  if (parts.length > 1 && (ORDER_CLAUSE.test(lineText(0)) || isLegalFormOnly(lineText(1)) || wrapsOrderClause(lineText(0), lineText(1)) || wrapsName(lineText(0), lineText(1)))) nameCount = 2;
  const firstText = parts[0]!.line.text.slice(parts[0]!.start, parts[0]!.end);
  const match = nameCount === 1 ? NAME_THEN_ADDRESS.exec(firstText.trim()) : null;
  // The address after the legal form carries a number (street, post code); "CO., LTD." is still the name.
  const inline = match && /\d/.test(match[2]!) ? match : null;
  if (inline) {
    const lead = firstText.length - firstText.trimStart().length;
    const nameEnd = parts[0]!.start + lead + inline[1]!.length;
    const addressStart = parts[0]!.start + lead + firstText.trim().length - inline[2]!.length;
    const nameFound = foundOf([{ ...parts[0]!, end: nameEnd }], found.confidence);
    const addressParts = [{ ...parts[0]!, start: addressStart }, ...parts.slice(1)];
    const addressFound = foundOf(addressParts, found.confidence);
    return { name: cleanValue(inline[1]!), nameFound, address: cleanValue(addressFound.text), addressFound };
  }
  const nameFound = foundOf(parts.slice(0, nameCount), found.confidence);
  const name = cleanValue(nameFound.text);
  if (!name) return undefined;
  const rest = parts.slice(nameCount);
  if (rest.length > 0) {
    const addressFound = foundOf(rest, found.confidence);
    const address = rest.map((p) => cleanValue(p.line.text.slice(p.start, p.end))).filter(Boolean).join(" ");
    return { name, nameFound, address, addressFound };
  }
  const addressHit = doc.hitsByKey.get("address")?.find((hit) => {
    const last = found.parts[found.parts.length - 1]!.line;
    return hit.line.page === last.page && hit.line.row > last.row && hit.line.row <= last.row + 2;
  });
  const addressFound = addressHit ? valueOfHit(doc, addressHit, { maxLines: MAX_PARTY_LINES - 1 }) : undefined;
  if (!addressFound) return { name, nameFound };
  return { name, nameFound, address: cleanValue(addressFound.text), addressFound };
}

/** "Messrs." opens an addressee block: the name after it, the address below it at the margin of "Messrs." itself. */
const ADDRESS_FORM = /^MESSRS\b/;

function withAddressBelow(doc: Doc, found: Found, hit: LabelHit): Found {
  if (found.parts.length > 1 || !ADDRESS_FORM.test(hit.line.upper.slice(hit.start))) return found;
  const x0 = xAt(hit.line, hit.start);
  const below = linesBelow(doc, hit.line, x0, columnEnd(doc, hit.line), MAX_PARTY_LINES - 1);
  return below.length === 0 ? found : foundOf([...found.parts, ...below.map((l) => partOf(l))], found.confidence);
}

/** The first party labelled by one of `keys` (in priority order). */
export function readParty(doc: Doc, keys: readonly string[]): PartyFound | undefined {
  return findLabelled(doc, keys, (found, hit) => splitParty(doc, withAddressBelow(doc, found, hit)), { maxLines: MAX_PARTY_LINES })?.value;
}
