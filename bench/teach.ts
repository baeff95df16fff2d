/**
 * Teaching a layout once (issue 14, item 4), measured on the generator's layout families:
 *
 *   npx tsx bench/teach.ts [--part development|holdout] [--layouts N] [--verbose]
 *
 * For each family, type and template (a layout seed): the engine reads one
 * document of the template; every field it got wrong is "corrected" by a
 * checker to the printed value, which teaches the field's place (locateValue,
 * as the app does). Then other documents of the same template, issued by the
 * same parties with other values, are read without and with the taught layout:
 *   fixed   — wrong without, right with;   still wrong — wrong both ways;
 *   broken  — right without, wrong with;   kept — right both ways.
 * Only fields whose value differs from the taught document's count ("other
 * values"). Documents of other templates (same family, and other families) of
 * the same issuer are read with the taught layout too: any value that changes
 * is counted. It also prints the layout similarity of same and other templates,
 * against which LAYOUT_MATCH_THRESHOLD was chosen (development part).
 */
import {
  analyzePages,
  DOCUMENT_TYPES,
  idOfLabel,
  ingestDocument,
  issuerKeyOf,
  LAYOUT_MATCH_THRESHOLD,
  layoutFingerprint,
  layoutSimilarity,
  locateValue,
  type DocumentTypeId,
  type FieldKind,
  type LayoutHint,
  type Page,
  type SplitResult,
} from "@/lib/analysis";
import { familiesOf, generateSameLayoutDocument, type Family, type Part } from "@/test/fixtures/generator/families/index";
import { valuesEqual } from "./metrics";

const TYPES: DocumentTypeId[] = ["commercial_invoice", "packing_list", "bill_of_lading", "certificate_of_weight", "certificate_of_origin"];
/** Other documents of the template read after the teaching. */
const NEXT_DOCUMENTS = 2;
const SEED_BASE: Record<Part, number> = { development: 91_000, holdout: 93_000 };

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Read {
  pages: Page[];
  expected: SplitResult;
  predicted: SplitResult;
}

async function read(type: DocumentTypeId, layoutSeed: number, valuesSeed: number, family: Family, hints: LayoutHint[] = []): Promise<Read & { withHints: SplitResult }> {
  const fixture = await generateSameLayoutDocument(type, layoutSeed, valuesSeed, family);
  const pages = await ingestDocument(fixture.pdf);
  const [predicted] = analyzePages(pages, { evidence: true });
  const [withHints] = analyzePages(pages, { evidence: true, layoutHints: hints });
  return { pages, expected: fixture.expected[0]!, predicted: predicted!, withHints: withHints! };
}

const kindsOf = (type: DocumentTypeId) => DOCUMENT_TYPES[type].fields as Record<string, FieldKind>;
const correctable = (kind: FieldKind | undefined) => kind !== undefined && !(typeof kind === "object" && "objects" in kind);

/** A checker corrects every field the engine got wrong on the document: the places found teach the layout. */
function teach(type: DocumentTypeId, doc: Read, id: string): { hint: LayoutHint; corrected: number; notFound: number } {
  const kinds = kindsOf(type);
  const fields: LayoutHint["fields"] = {};
  let corrected = 0;
  let notFound = 0;
  const values = { ...doc.predicted.extracted };
  for (const [field, value] of Object.entries(doc.expected.extracted)) {
    if (!correctable(kinds[field]) || valuesEqual(value, doc.predicted.extracted[field])) continue;
    corrected++;
    values[field] = value;
    const place = locateValue(doc.pages, field, kinds[field]!, value);
    if (place) fields[field] = { ...place, source: id };
    else notFound++;
  }
  return { hint: { id, documentType: type, issuer: issuerKeyOf(values), fingerprint: layoutFingerprint(doc.pages), fields }, corrected, notFound };
}

const counts = () => ({ fixed: 0, stillWrong: 0, broken: 0, kept: 0 });
type Counts = ReturnType<typeof counts>;

function score(into: Counts, taught: LayoutHint, teachDoc: Read, next: Read & { withHints: SplitResult }): void {
  for (const field of Object.keys(taught.fields)) {
    const expected = next.expected.extracted[field];
    if (expected === undefined || valuesEqual(expected, teachDoc.expected.extracted[field])) continue;
    const before = valuesEqual(expected, next.predicted.extracted[field]);
    const after = valuesEqual(expected, next.withHints.extracted[field]);
    if (!before && after) into.fixed++;
    else if (!before && !after) {
      into.stillWrong++;
      if (verbose) console.log(`    still wrong ${taught.id} ${field}: expected ${JSON.stringify(expected)}, read ${JSON.stringify(next.withHints.extracted[field])} (place ${JSON.stringify(taught.fields[field])})`);
    }
    else if (before && !after) into.broken++;
    else into.kept++;
  }
}

const changedFields = (a: SplitResult, b: SplitResult) => Object.keys({ ...a.extracted, ...b.extracted }).filter((k) => JSON.stringify(a.extracted[k]) !== JSON.stringify(b.extracted[k])).length;

const part = (option("--part") ?? "development") as Part;
const layouts = Number(option("--layouts") ?? 1);
const verbose = process.argv.includes("--verbose");
const families = familiesOf(part);
const total = counts();
const byFamily = new Map<string, Counts>();
let corrections = 0;
let notLocated = 0;
let otherDocs = 0;
let otherChangedDocs = 0;
let otherChangedFields = 0;
const sameSims: number[] = [];
const otherSims: number[] = [];
let seed = SEED_BASE[part];
for (const family of families) {
  const familyCounts = counts();
  for (const type of TYPES) {
    for (let l = 0; l < layouts; l++) {
      const layoutSeed = seed++;
      const teachDoc = await read(type, layoutSeed, layoutSeed, family);
      if (idOfLabel(teachDoc.predicted.split.document_type) !== type) continue;
      const { hint, corrected, notFound } = teach(type, teachDoc, `${family.name}-${type}-${layoutSeed}`);
      corrections += corrected;
      notLocated += notFound;
      for (let n = 1; n <= NEXT_DOCUMENTS; n++) {
        const next = await read(type, layoutSeed, layoutSeed + 500 * n, family, [hint]);
        sameSims.push(layoutSimilarity(layoutFingerprint(next.pages), hint.fingerprint));
        score(familyCounts, hint, teachDoc, next);
      }
      // Other templates of the same issuer: another layout seed of this family, and each other family.
      const others: [number, Family][] = [[layoutSeed + 7_000, family], ...families.filter((f) => f !== family).map((f, k): [number, Family] => [layoutSeed + 8_000 + k, f])];
      for (const [otherSeed, otherFamily] of others) {
        const other = await read(type, otherSeed, layoutSeed + 500, otherFamily, [hint]);
        otherSims.push(layoutSimilarity(layoutFingerprint(other.pages), hint.fingerprint));
        const changed = changedFields(other.predicted, other.withHints);
        otherDocs++;
        if (changed > 0) {
          otherChangedDocs++;
          if (verbose) console.log(`    other template changed: ${otherFamily.name} ${otherSeed} with ${hint.id}`);
        }
        otherChangedFields += changed;
      }
      if (verbose) console.log(`  ${hint.id}: ${corrected} corrected, ${Object.keys(hint.fields).length} taught`);
    }
  }
  byFamily.set(family.name, familyCounts);
  for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += familyCounts[key];
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)}%`);
const range = (xs: number[]) => (xs.length ? `min ${Math.min(...xs).toFixed(2)}, median ${[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2)}, max ${Math.max(...xs).toFixed(2)}` : "–");
console.log(`Teach a layout once, ${part} families, ${TYPES.length} types, ${layouts} template(s) per family and type, ${NEXT_DOCUMENTS} next documents each`);
console.log(`  corrections on the taught documents: ${corrections} (value not found on the page, so not taught: ${notLocated})`);
console.log(`  next documents of the same template, taught fields with other values: fixed ${total.fixed}, still wrong ${total.stillWrong}, broken ${total.broken}, kept right ${total.kept}`);
console.log(`    fixed share of the wrong ones: ${pct(total.fixed, total.fixed + total.stillWrong)}`);
for (const [name, c] of byFamily) console.log(`    ${name}: fixed ${c.fixed}, still wrong ${c.stillWrong}, broken ${c.broken}, kept ${c.kept}`);
console.log(`  documents of other templates read with the taught layout: ${otherDocs}, changed ${otherChangedDocs} (${otherChangedFields} fields)`);
console.log(`  layout similarity (threshold ${LAYOUT_MATCH_THRESHOLD}): same template ${range(sameSims)}; other templates ${range(otherSims)}`);
