import type { PageClass } from "../classify/cues";
import { MT_MIN_TAGS } from "../classify/score-page";
import type { PageInput } from "./page-input";

/**
 * Where a letter of credit ends. A credit reaches the beneficiary as a printed
 * SWIFT message (MT700, continued by MT701s), often behind the advising bank's
 * advice letter: the advice and the message it forwards are one credit. A
 * printed message opens with a header block or ":27: 1/n", runs over as many
 * pages as its tags need, and ends with a trailer; a batch of credits is a run of
 * such messages, each with its own ":20:" number.
 */

/** How far the open credit's message has got. */
export type MessageState = "none" | "open" | "ended";

export interface OpenCredit {
  message: MessageState;
  refs: ReadonlyMap<string, string>;
}

/** The message state once `input` is added to a credit. */
export function advanceMessage(state: MessageState, input: PageInput): MessageState {
  const { markers, features } = input;
  if (markers.messageEnd) return "ended";
  if (markers.messageStart || markers.sequence || features.mtTags >= MT_MIN_TAGS) return "open";
  return state;
}

/**
 * Whether `input` continues the open credit: true, false, or undefined when the
 * message says nothing and the general evidence decides.
 */
export function continuesCredit(open: OpenCredit, input: PageInput, best: PageClass): boolean | undefined {
  const { markers, features } = input;
  const known = open.refs.get("lc");
  const ref = markers.refs.get("lc");
  if (known !== undefined && ref !== undefined && known !== ref) return false;
  // An MT701 (":27: 2/3") continues the MT700 before it.
  if (markers.sequence && markers.sequence.current > 1) return true;
  const startsMessage = markers.messageStart || features.mtTags >= MT_MIN_TAGS;
  if (open.message === "none") return startsMessage ? true : undefined;
  if (markers.messageStart) return false;
  // An unfinished message runs on over every page that carries its tags.
  if (open.message === "open") return features.mtTags > 0 ? true : undefined;
  // After its trailer only a page that reads as a credit belongs to it: nothing is inherited.
  return best === "letter_of_credit" && !startsMessage;
}
