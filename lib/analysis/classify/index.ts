import type { Page } from "../types";
import { readPageMarkers } from "../split/page-markers";
import type { PageInput } from "../split";
import { readPageFeatures } from "./page-features";
import { scorePage } from "./score-page";

export { typeOfClass } from "./cues";

/** Reads what every page says about its type and its place in a document. */
export function describePages(pages: Page[]): PageInput[] {
  return pages.map((page) => {
    const features = readPageFeatures(page);
    return { features, markers: readPageMarkers(page, features.normalizedLines, features.text.words), scores: scorePage(features) };
  });
}
