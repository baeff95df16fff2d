"use client";

import { Alert, EmptyState, Spinner } from "@/components/ui";
import type { SetView } from "@/lib/sets/types";
import { ComparisonTable } from "./comparison-table";
import { ExportLinks } from "./export-links";
import { FindingsList } from "./findings-list";

/** The matrix of facts across the set's documents, with the examination's findings beside it. */
export function ComparisonView({ view, onOpen }: { view: SetView; onOpen: (documentId: string, page?: number) => void }) {
  if (!view.settled) {
    return (
      <div className="comparison-waiting">
        <Spinner label="The comparison is made once every file is analysed…" />
      </div>
    );
  }
  if (view.examinationError) return <Alert tone="danger" title="The set could not be examined">{view.examinationError}</Alert>;
  const examination = view.examination;
  if (!examination) {
    return <EmptyState title="Nothing to compare yet">Add the presentation&apos;s files; once they are analysed, their facts are lined up here.</EmptyState>;
  }
  return (
    <div className="comparison-layout">
      <div className="comparison-main">
        <ExportLinks setId={view.set.id} />
        <p className="comparison-note muted">
          Examined at {examination.presentationDate}
          {view.set.presentationDate ? " (the set's presentation date)" : " (today; the set has no presentation date)"}. Values that agree stay quiet;
          mismatches are marked with their reason.
        </p>
        <ComparisonTable examination={examination} onOpen={onOpen} />
      </div>
      <FindingsList setId={view.set.id} findings={examination.findings} onOpen={onOpen} />
    </div>
  );
}
