/**
 * What a name or address block holds and what it does not: a company's legal
 * form may wrap onto a line of its own ("PACIFIC OCEAN TRANSPORT" / "CO.,
 * LTD."), while telephone, fax, e-mail and web lines are contacts, and a
 * logo's two or three initials are artwork. Both end a block's address.
 */

/** A line holding only legal forms: the wrapped end of a company name. */
const LEGAL_FORM_LINE =
  /^(?:(?:CO|CORP|CORPORATION|COMPANY|LTD|LIMITED|INC|INCORPORATED|LLC|L\.L\.C|GMBH|AG|S\.?A|PLC|PTE|PVT|PRIVATE|BHD|BERHAD|SDN|SRL|B\.?V|N\.?V|LLP|FZE|FZCO|JSC|P\.?J\.?S\.?C|B\.?S\.?C|Q\.?P\.?S\.?C|S\.?A\.?O\.?G|A\.?S|OOO|LTDA|S\.?P\.?A|SARL|SAS|KG|PTY|W\.L\.L|EST)\.?[\s,&.()]*)+$/i;
/** Telephone, fax, e-mail, web: a contact line, never part of an address. */
const CONTACT_LINE = /^(?:TEL|TELEPHONE|PHONE|PH|FAX|MOB|MOBILE|CELL|E-?MAIL|WEB|WEBSITE|URL|WWW)\b|@[\w-]+\.\w|\bWWW\.\w|^\+?[\d\s()./-]{9,}$/i;
/** Two or three capitals alone on a line: a logo's initials. */
const INITIALS = /^[A-Z]{1,3}$/;

export function isLegalFormOnly(text: string): boolean {
  return LEGAL_FORM_LINE.test(text.trim());
}

export function isContactLine(text: string): boolean {
  return CONTACT_LINE.test(text.trim());
}

export function isInitials(text: string): boolean {
  return INITIALS.test(text.trim());
}

/** A telephone, fax or e-mail run on after a name on its line ("... DE GOIAS 919 512 8666", "... INDUSTRY Tel: +34 ..."). */
const CONTACT_TAIL = /\s+(?:(?:TEL|TELEPHONE|PHONE|FAX|E-?MAIL)\b.*|\+?\d[\d\s().-]{6,}\d)$/i;

/** A name without the contact printed after it on its line. */
export function withoutContact(name: string): string {
  return name.replace(CONTACT_TAIL, "");
}
