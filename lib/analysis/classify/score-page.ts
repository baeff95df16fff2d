import { TITLES, type PageClass } from "./cues";
import { containsPhrase, preparePhrase, type IndexedText, type Phrase } from "./normalize-text";
import type { PageFeatures } from "./page-features";
import { VOCABULARY, weightedPhrases } from "./vocabulary";

/** The page's own title: worth more than any amount of body vocabulary, so titles dominate. */
const TITLE_EXACT_WEIGHT = 14;
/** A title with extra words on its line (issuer, number). */
const TITLE_PARTIAL_WEIGHT = 11;
/** Other title-like lines on the page (a second heading, a box caption). */
const SECONDARY_TITLE_WEIGHT = 2;
/** Body vocabulary adds up to this much per class: below a title, above a lone mention. */
const BODY_CAP = 10;
/** Per distinct SWIFT tag opening a line, up to MT_TAG_CAP tags. */
const MT_TAG_WEIGHT = 2;
const MT_TAG_CAP = 8;
/** A page must carry this many distinct tags before they say "SWIFT message". */
export const MT_MIN_TAGS = 3;
/** A page naming this many other document types in its body lists documents: an instruction or a credit. */
const LIST_MIN_TYPES = 4;
const LIST_WEIGHT = 5;
/** A list of documents under columns of originals and copies is a schedule of what is enclosed, not a credit's requirements. */
const ENCLOSURE_WEIGHT = 4;
/** Long small print with no title reads as the terms on a transport document's reverse. */
const SMALL_PRINT_FONT = 7;
const SMALL_PRINT_MIN_WORDS = 500;
const SMALL_PRINT_WEIGHT = 4;
/** A nearly empty page whose only text is a note about copies or files is a separator sheet. */
const SEPARATOR_MAX_WORDS = 25;
const SEPARATOR_WEIGHT = 3;

/** A printed e-mail (shipment advice, correspondence) is Other unless its words make it an instruction. */
const EMAIL_WEIGHT = 5;

export type ClassScores = Map<PageClass, number>;

const CLASSES = Object.keys(TITLES) as PageClass[];

/** Multi-word titles of real document types, for spotting a list of documents; by key word (see preparePhrase). */
const LISTABLE_BY_KEY = byKey(
  CLASSES.filter((c) => weightedPhrases(VOCABULARY[c]).length > 0).flatMap((cls) =>
    TITLES[cls].filter((p) => p.includes(" ")).map((p) => ({ cls, phrase: preparePhrase(p), weight: 0 })),
  ),
);

/** Every class's body vocabulary, by key word: a page looks up only the phrases whose key word it carries. */
const VOCABULARY_BY_KEY = byKey(
  CLASSES.flatMap((cls) => weightedPhrases(VOCABULARY[cls]).map(([phrase, weight]) => ({ cls, phrase: preparePhrase(phrase), weight }))),
);

interface KeyedPhrase {
  cls: PageClass;
  phrase: Phrase;
  weight: number;
}

function byKey(entries: KeyedPhrase[]): ReadonlyMap<string, readonly KeyedPhrase[]> {
  const index = new Map<string, KeyedPhrase[]>();
  for (const entry of entries) {
    const list = index.get(entry.phrase.key) ?? [];
    list.push(entry);
    index.set(entry.phrase.key, list);
  }
  return index;
}

/** The entries whose phrase the page carries (each phrase once, whatever the order of the page's words). */
function phrasesOn(text: IndexedText, index: ReadonlyMap<string, readonly KeyedPhrase[]>): KeyedPhrase[] {
  const found: KeyedPhrase[] = [];
  for (const word of text.words) {
    const entries = index.get(word);
    if (entries) for (const entry of entries) if (containsPhrase(text, entry.phrase)) found.push(entry);
  }
  return found;
}

/** Scores every class on one page from its title, vocabulary and structure. */
export function scorePage(features: PageFeatures): ClassScores {
  const scores: ClassScores = new Map(CLASSES.map((c) => [c, 0]));
  const add = (cls: PageClass, weight: number) => scores.set(cls, (scores.get(cls) ?? 0) + weight);

  const title = features.title;
  if (title) add(title.cls, title.exact ? TITLE_EXACT_WEIGHT : TITLE_PARTIAL_WEIGHT);
  const secondary = new Set(features.titleMatches.filter((m) => m !== title && m.cls !== title?.cls).map((m) => m.cls));
  for (const cls of secondary) add(cls, SECONDARY_TITLE_WEIGHT);

  const body = new Map<PageClass, number>();
  for (const { cls, weight } of phrasesOn(features.text, VOCABULARY_BY_KEY)) body.set(cls, (body.get(cls) ?? 0) + weight);
  for (const [cls, weight] of body) add(cls, Math.min(weight, BODY_CAP));

  if (features.emailHeader) add("correspondence", EMAIL_WEIGHT);
  if (features.mtTags >= MT_MIN_TAGS) add("letter_of_credit", MT_TAG_WEIGHT * Math.min(features.mtTags, MT_TAG_CAP));

  const named = new Set<PageClass>();
  for (const { cls } of phrasesOn(features.text, LISTABLE_BY_KEY)) if (cls !== title?.cls) named.add(cls);
  if (named.size >= LIST_MIN_TYPES) {
    add("document_instruction", LIST_WEIGHT);
    add("letter_of_credit", LIST_WEIGHT);
    if (features.countColumns) add("document_instruction", ENCLOSURE_WEIGHT);
  }

  if (!title && features.medianFontSize > 0 && features.medianFontSize < SMALL_PRINT_FONT && features.wordCount >= SMALL_PRINT_MIN_WORDS) {
    add("bill_of_lading", SMALL_PRINT_WEIGHT);
  }
  // A short note about copies or files on an otherwise empty page is a separator sheet; a sparse page without one is more likely a reverse side.
  const separatorNote = (scores.get("separator") ?? 0) > 0;
  if (separatorNote && features.wordCount <= SEPARATOR_MAX_WORDS && !title) add("separator", SEPARATOR_WEIGHT);
  return scores;
}

/** The best class and its score; ties go to `prefer` (the page's neighbour) when it is among them. */
export function bestClass(scores: ClassScores, prefer?: PageClass): { cls: PageClass; score: number } {
  let best: { cls: PageClass; score: number } = { cls: "separator", score: 0 };
  for (const [cls, score] of scores) {
    if (score > best.score || (score === best.score && score > 0 && cls === prefer)) best = { cls, score };
  }
  return best;
}
