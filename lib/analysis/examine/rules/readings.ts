/**
 * What the examination set aside as unreadable before comparing: values that
 * were captions or titles, and ports that were a neighbouring party box (captions.ts). Said once per document, as info,
 * so that a checker knows which facts were not compared.
 */
import type { Presentation } from "../presentation";
import { report, type RuleSpec } from "../rule-kit";
import type { Finding } from "../types";

const CAPTION_SET_ASIDE: RuleSpec = {
  id: "reading.caption_as_value",
  reference: "UCP 600 art. 14(d)",
  severity: "info",
  title: "A value read as a caption, a title or a neighbouring box is set aside, not compared",
};

export const READING_RULES = [CAPTION_SET_ASIDE];

export function checkReadings(p: Presentation): Finding[] {
  return p.all.filter((d) => d.setAside.length > 0).map((doc) => report(CAPTION_SET_ASIDE, {
    documents: [doc], fields: doc.setAside.map((s) => s.key),
    found: doc.setAside.map((s) => `${s.key}: ${s.value}`).join("; "),
    message: `${doc.type}: ${doc.setAside.map((s) => `${s.key.replace(/_/g, " ")} read as "${s.value}"`).join(", ")} — a caption or a neighbouring box, not a value of its kind; not compared.`,
  }));
}
