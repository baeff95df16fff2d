/** Named defaults for every tolerance the examination applies; callers may override each one. */
import type { Tolerances } from "./types";

/** UCP 600 art. 30(a): "about" or "approximately" allows 10% more or less. */
const ABOUT_TOLERANCE_PCT = 10;
/** UCP 600 art. 30(b): 5% more or less on quantity unless units or packing units are counted. */
const QUANTITY_TOLERANCE_PCT = 5;
/**
 * A checker treats any real weight difference between documents as a conflict
 * (art. 14(d)); we only absorb rounding to the kilogram and LBS/MT conversion.
 */
const WEIGHT_TOLERANCE_KG = 1;
const WEIGHT_TOLERANCE_PCT = 0;
/** UCP 600 art. 14(c): 21 calendar days after shipment when the credit sets no period. */
const DEFAULT_PRESENTATION_DAYS = 21;
/** Below half of the credit's goods words the invoice no longer corresponds (art. 18(c)). */
const DESCRIPTION_MIN_COVERAGE = 0.5;
/** Between the minimum and this share, a checker should look: warning. */
const DESCRIPTION_FULL_COVERAGE = 0.8;
/** Party names this similar (after legal forms and punctuation are set aside) are the same party read with OCR noise. */
const NAME_SIMILARITY = 0.88;

export const DEFAULT_TOLERANCES: Tolerances = {
  aboutPct: ABOUT_TOLERANCE_PCT,
  quantityPct: QUANTITY_TOLERANCE_PCT,
  weightKg: WEIGHT_TOLERANCE_KG,
  weightPct: WEIGHT_TOLERANCE_PCT,
  presentationDays: DEFAULT_PRESENTATION_DAYS,
  descriptionMinCoverage: DESCRIPTION_MIN_COVERAGE,
  descriptionFullCoverage: DESCRIPTION_FULL_COVERAGE,
  nameSimilarity: NAME_SIMILARITY,
};
