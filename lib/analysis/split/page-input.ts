import type { PageFeatures } from "../classify/page-features";
import type { ClassScores } from "../classify/score-page";
import type { PageMarkers } from "./page-markers";

/** Everything splitting knows of one page: what it reads as and what it says of its place in a document. */
export interface PageInput {
  features: PageFeatures;
  markers: PageMarkers;
  scores: ClassScores;
}
