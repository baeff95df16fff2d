/**
 * The B/L's own terms: freight marking against the Incoterm and :46A:, and
 * no clause declaring the goods or packaging defective (UCP 600 art. 27).
 */
import { normalizeIncoterm } from "../../normalize/incoterms";
import { readText } from "../fields";
import { docsOfType, type Doc, type Presentation } from "../presentation";
import { readRequirements } from "../requirements";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const FREIGHT: RuleSpec = {
  id: "bl.freight_terms",
  reference: "UCP 600 art. 14(a), 14(d); ISBP 821 E26",
  severity: "discrepancy",
  title: "Freight prepaid or collect as the credit and the Incoterm imply",
};
const CLEAN: RuleSpec = {
  id: "bl.clean",
  reference: "UCP 600 art. 27; ISBP 821 E20",
  severity: "discrepancy",
  title: "Clean B/L: no clause declaring the goods or packaging defective",
};

/** Terms under which the seller pays the main carriage: freight must be prepaid. */
const SELLER_PAYS_CARRIAGE = new Set(["CFR", "CIF", "CPT", "CIP", "DAP", "DPU", "DDP", "DAT", "DDU", "DES", "DEQ", "DAF"]);
/** Terms under which the buyer pays: collect is normal, prepaid is possible but unusual. */
const BUYER_PAYS_CARRIAGE = new Set(["EXW", "FCA", "FAS", "FOB"]);

function incotermOf(p: Presentation): string | undefined {
  const sources = [p.credit?.fields ?? {}, ...docsOfType(p, "commercial_invoice").map((d) => d.fields)];
  for (const fields of sources) {
    const term = readText(fields, "incoterms");
    const code = term ? normalizeIncoterm(term)?.split(" ")[0] : undefined;
    if (code) return code;
  }
  return undefined;
}

function checkFreight(p: Presentation, bls: Doc[]): Finding[] {
  const demanded = readRequirements(p.credit?.fields ?? {}).find((r) => r.freight)?.freight;
  const term = incotermOf(p);
  return bls.flatMap((bl) => {
    const shown = readText(bl.fields, "freight_terms");
    if (shown !== "prepaid" && shown !== "collect") return [];
    const base = { documents: [bl], fields: ["freight_terms"], found: `freight ${shown}` };
    if (demanded && demanded !== shown) {
      return [report(FREIGHT, { ...base, expected: `freight ${demanded}`, message: `Bill of lading is marked freight ${shown}; the credit requires it marked freight ${demanded}.` })];
    }
    if (term && SELLER_PAYS_CARRIAGE.has(term) && shown === "collect") {
      return [report(FREIGHT, { ...base, expected: "freight prepaid", message: `Bill of lading is marked freight collect although the goods are sold ${term}, under which the seller pays the freight.` })];
    }
    if (term && BUYER_PAYS_CARRIAGE.has(term) && shown === "prepaid" && !demanded) {
      return [report(FREIGHT, { ...base, expected: "freight collect", severity: "warning", message: `Bill of lading is marked freight prepaid although the goods are sold ${term}; check the freight terms.` })];
    }
    return [];
  });
}

/** A clause that expressly declares a defect: "3 CARTONS TORN", "PACKAGES WET AND STAINED", "GOODS DAMAGED". */
const PACKING = String.raw`(?:GOODS|CARGO|PACKING|PACKAGING|PACKAGES?|CARTONS?|CTNS|BAGS?|DRUMS?|CASES?|PALLETS?|BALES?|BOXES|COILS?|UNITS?)`;
const DEFECT = String.raw`(?:DAMAGED|TORN|BROKEN|WET|STAINED|DENTED|LEAK(?:ING|ED)?|RUST(?:Y|ED)|CRUSHED|HOLED|MOULDY|MOLDY|INSUFFICIENT(?:LY\s+PACKED)?|DEFECTIVE|NOT\s+SUFFICIENT|UNFIT|SECOND[-\s]?HAND|RE-?USED)`;
const DEFECT_CLAUSE = new RegExp(
  String.raw`\b${PACKING}\s+(?:(?:ARE|IS|WERE|WAS|FOUND|RECEIVED)\s+)*${DEFECT}\b|\b${DEFECT}\s+${PACKING}\b|\bIN\s+DAMAGED\s+CONDITION\b|\bUNCLEAN\b`,
);
/** Possibility is not declaration ("packaging may not be sufficient", ISBP 821 E21); legal terms on the reverse are not clauses. */
const NOT_DECLARED = /\b(?:MAY|MIGHT|COULD|IF|WHETHER|UNLESS)\b|\bCARRIER\b.*\b(?:LIABLE|RESPONSIB|LIABILITY)|\bLIAB|\bMERCHANT\b|\bHEREIN|\bHEREOF|\bCLAUSE\s+\d/;

export function findDefectClause(text: string): string | undefined {
  const sentences = text.toUpperCase().split(/[\n.;]/);
  return sentences.find((s) => DEFECT_CLAUSE.test(s) && !NOT_DECLARED.test(s))?.trim();
}

function checkClean(bls: Doc[]): Finding[] {
  return bls.flatMap((bl) => {
    const clause = bl.text ? findDefectClause(bl.text) : undefined;
    if (!clause) return [];
    return [report(CLEAN, {
      documents: [bl], fields: [], expected: "clean", found: clause,
      message: `Bill of lading bears a clause declaring a defective condition of the goods or packaging: "${clause}".`,
    })];
  });
}

export const BL_TERM_RULES = [FREIGHT, CLEAN];

export function checkBlTerms(p: Presentation): Finding[] {
  const bls = docsOfType(p, "bill_of_lading");
  return [...checkFreight(p, bls), ...checkClean(bls)];
}
