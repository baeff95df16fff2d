/**
 * Quantities as a credit and an invoice state them. Art. 30(b) allows 5% on
 * quantity unless the credit states it "in a stipulated number of packing
 * units or individual items" — so we tell counted units from measured ones.
 */

export interface Quantity {
  value: number;
  /** Canonical unit: "KG", "L", "M", "M2", "M3", or a counted unit such as "PCS". */
  unit: string;
  counted: boolean;
  /** Preceded by "about", "approximately" or "circa" (art. 30(a)). */
  about: boolean;
  /** A tolerance the credit states with the quantity: "95 MT +/- 10 PCT", "5 PCT MORE OR LESS". */
  tolerancePct?: number;
}

const STATED_TOLERANCE = /^\s*(?:(?:\+\s*\/\s*-|\+\s*\/\s*−|±|PLUS\s*\/?\s*(?:OR\s+)?MINUS|MORE\s+OR\s+LESS)\s*(\d+(?:\.\d+)?)\s*(?:PCT|%|PERCENT)|(\d+(?:\.\d+)?)\s*(?:PCT|%|PERCENT)\s*(?:MORE\s+OR\s+LESS|\+\s*\/\s*-|PLUS\s*\/?\s*(?:OR\s+)?MINUS))/i;

/** Measured units and their factor to the canonical unit. */
const MEASURED: Record<string, [string, number]> = {
  MT: ["KG", 1000], MTS: ["KG", 1000], TON: ["KG", 1000], TONS: ["KG", 1000], TONNE: ["KG", 1000],
  TONNES: ["KG", 1000], "M/T": ["KG", 1000], "METRIC TONS": ["KG", 1000], "METRIC TONNES": ["KG", 1000],
  KG: ["KG", 1], KGS: ["KG", 1], KILOS: ["KG", 1], KILOGRAMS: ["KG", 1], LBS: ["KG", 0.45359237],
  L: ["L", 1], LTR: ["L", 1], LTRS: ["L", 1], LITRE: ["L", 1], LITRES: ["L", 1], LITER: ["L", 1], LITERS: ["L", 1],
  ML: ["L", 0.001], M: ["M", 1], MTR: ["M", 1], MTRS: ["M", 1], METERS: ["M", 1], METRES: ["M", 1],
  YDS: ["M", 0.9144], YARDS: ["M", 0.9144], M2: ["M2", 1], SQM: ["M2", 1], M3: ["M3", 1], CBM: ["M3", 1],
};

/** Packing units and individual items, folded to one spelling. */
const COUNTED: Record<string, string> = {
  PCS: "PCS", PC: "PCS", PIECE: "PCS", PIECES: "PCS", NOS: "PCS", EACH: "PCS", EA: "PCS",
  UNIT: "UNITS", UNITS: "UNITS", SET: "SETS", SETS: "SETS", PAIR: "PAIRS", PAIRS: "PAIRS",
  CARTON: "CARTONS", CARTONS: "CARTONS", CTN: "CARTONS", CTNS: "CARTONS", BAG: "BAGS", BAGS: "BAGS",
  BOX: "BOXES", BOXES: "BOXES", DRUM: "DRUMS", DRUMS: "DRUMS", PALLET: "PALLETS", PALLETS: "PALLETS",
  ROLL: "ROLLS", ROLLS: "ROLLS", BALE: "BALES", BALES: "BALES", CASE: "CASES", CASES: "CASES",
  BOTTLE: "BOTTLES", BOTTLES: "BOTTLES", CAN: "CANS", CANS: "CANS", COIL: "COILS", COILS: "COILS",
  PACKAGE: "PACKAGES", PACKAGES: "PACKAGES", PKGS: "PACKAGES", DOZEN: "DOZEN", SHEETS: "SHEETS",
};

function normalizeUnit(unit: string): { unit: string; factor: number; counted: boolean } | undefined {
  const key = unit.toUpperCase().replace(/\.$/, "").replace(/\s+/g, " ").trim();
  const measured = MEASURED[key];
  if (measured) return { unit: measured[0], factor: measured[1], counted: false };
  const counted = COUNTED[key];
  return counted ? { unit: counted, factor: 1, counted: true } : undefined;
}

const UNIT_WORDS = [...Object.keys(MEASURED), ...Object.keys(COUNTED)]
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[/.]/g, "\\$&"))
  .join("|");
/** A number standing on its own (not "SC-1500") followed by a unit word. */
const QUANTITY_IN_TEXT = new RegExp(
  `(?:^|[\\s(:,])((?:ABOUT|APPROX(?:IMATELY|\\.)?|CIRCA|CA\\.)\\s+)?(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)\\s*(${UNIT_WORDS})(?![A-Z0-9])`,
  "i",
);

/** The first quantity a goods description states, in canonical units. */
export function findQuantity(text: string): Quantity | undefined {
  const m = QUANTITY_IN_TEXT.exec(text);
  if (!m) return undefined;
  const unit = normalizeUnit(m[3]!);
  if (!unit) return undefined;
  const quantity: Quantity = { value: Number(m[2]!.replace(/,/g, "")) * unit.factor, unit: unit.unit, counted: unit.counted, about: Boolean(m[1]) };
  const stated = STATED_TOLERANCE.exec(text.slice(m.index + m[0].length));
  if (stated) quantity.tolerancePct = Number(stated[1] ?? stated[2]);
  return quantity;
}

/** A quantity given as a number and a unit (an invoice's `quantity` and `quantity_unit`). */
export function toQuantity(value: number, unit: string): Quantity | undefined {
  const u = normalizeUnit(unit);
  return u ? { value: value * u.factor, unit: u.unit, counted: u.counted, about: false } : undefined;
}

const ABOUT_AMOUNT = /\b(?:ABOUT|APPROX(?:IMATELY|\.)?|CIRCA)\s+(?:[A-Z]{3}\s?)[\d,.]+\d/i;

/** "ABOUT USD 50,000.00" in the credit's text: the amount tolerance of art. 30(a). */
export function saysAboutAmount(text: string): boolean {
  return ABOUT_AMOUNT.test(text);
}
