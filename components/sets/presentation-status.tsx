"use client";

import { Badge, type BadgeTone } from "@/components/ui";
import type { PresentationStatus as Status, SetView } from "@/lib/sets/types";

const TONE: Record<Status, BadgeTone> = { pending: "warning", compliant: "success", discrepant: "danger" };
const TITLE: Record<Status, string> = { pending: "Pending", compliant: "Compliant", discrepant: "Discrepant" };

/** The presentation's status with what it follows from, announced when it changes. */
export function PresentationStatus({ view }: { view: SetView }) {
  const open = view.examination?.findings.filter((f) => f.severity !== "info" && !f.decision).length ?? 0;
  const accepted = view.examination?.findings.filter((f) => f.decision?.decision === "accept").length ?? 0;
  const why = !view.examination
    ? "the set has not been examined yet"
    : open > 0
      ? `${open} finding${open === 1 ? "" : "s"} await${open === 1 ? "s" : ""} a decision`
      : accepted > 0
        ? `${accepted} accepted discrepanc${accepted === 1 ? "y stands" : "ies stand"}`
        : "no finding stands";
  return (
    <p className="presentation-status" role="status" data-status={view.status}>
      <span>Presentation status</span> <Badge tone={TONE[view.status]}>{TITLE[view.status]}</Badge> <span className="muted">{why}</span>
    </p>
  );
}
