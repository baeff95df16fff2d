"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Alert, Button, EmptyState, fetchJson } from "@/components/ui";
import type { SplitCorrection } from "@/lib/sets/split-layout";
import type { SetFileView, SetView } from "@/lib/sets/types";
import { SplitDetail } from "./split-detail";
import type { Selection } from "./selection";
import { SplitGroup } from "./split-group";

/** Splits of every analysed file on the left, the selected split's fields and page on the right. */
export function DocumentsView({ view, selection, onSelect }: { view: SetView; selection: Selection | null; onSelect: (s: Selection | null) => void }) {
  const analysed = view.files.filter((f) => f.status === "done");
  const selectedFile = selection && analysed.find((f) => f.id === selection.fileId);
  const selectedSplit = selectedFile?.splits[selection!.splitIndex];
  const detail = useRef<HTMLElement>(null);
  const shown = selectedSplit ? `${selection!.fileId}#${selection!.splitIndex}` : undefined;

  // Opening another document brings its fields and page into view below the splits.
  useEffect(() => {
    if (!shown) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    detail.current?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  }, [shown]);

  if (analysed.length === 0) {
    const waiting = view.files.some((f) => f.status === "uploaded" || f.status === "analyzing");
    return (
      <EmptyState title={waiting ? "Reading the documents…" : "No analysed documents yet"}>
        {waiting
          ? "Each file is split into its documents, typed and read. The splits appear here as soon as a file is done."
          : "Add files above. Each file is split into its documents, and every document's fields are read."}
      </EmptyState>
    );
  }

  return (
    <div className="documents-layout">
      <div className="documents-list">
        {analysed.map((file) => (
          <FileSplits key={file.id} setId={view.set.id} file={file} selection={selection} onSelect={onSelect} />
        ))}
      </div>
      <aside ref={detail} className="documents-detail" aria-label="Selected document">
        {selectedFile && selectedSplit ? (
          <SplitDetail setId={view.set.id} file={selectedFile} split={selectedSplit} selection={selection!} onSelect={onSelect} />
        ) : (
          <div className="detail-placeholder">
            <h3>Select a document</h3>
            <p className="muted">Choose a document above: its extracted fields appear here, and choosing a field shows where it was read on the page.</p>
          </div>
        )}
      </aside>
    </div>
  );
}

function FileSplits({ setId, file, selection, onSelect }: { setId: string; file: SetFileView; selection: Selection | null; onSelect: (s: Selection | null) => void }) {
  const client = useQueryClient();
  const correct = useMutation({
    mutationFn: (correction: SplitCorrection) =>
      fetchJson(`/api/sets/${encodeURIComponent(setId)}/files/${encodeURIComponent(file.id)}/splits`, { method: "PATCH", body: correction }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ["set", setId] });
      // Split numbers may have moved: keep the file, drop the split selection.
      if (selection?.fileId === file.id) onSelect(null);
    },
  });
  const corrected = file.corrections.length > 0 && file.corrections.at(-1)!.action !== "reset";

  return (
    <section className="file-block" aria-label={`Documents in ${file.fileName}`}>
      <header className="file-block-head">
        <h3>{file.fileName}</h3>
        <span className="muted">{file.splits.length} documents · {file.pageCount} pages</span>
        {corrected && (
          <Button size="sm" variant="ghost" onClick={() => correct.mutate({ action: "reset" })} disabled={correct.isPending}>
            Undo corrections
          </Button>
        )}
      </header>
      {correct.error && <Alert tone="danger" title="The correction was not applied">{correct.error.message}</Alert>}
      <div className="split-flow">
      {file.splits.map((split, i) => (
        <SplitGroup
          key={`${i}-${split.split.pages[0]}`}
          setId={setId}
          file={file}
          split={split}
          index={i}
          selected={selection?.fileId === file.id && selection.splitIndex === i}
          busy={correct.isPending}
          onSelect={(page) => onSelect({ fileId: file.id, splitIndex: i, page })}
          onCorrect={(c) => correct.mutate(c)}
        />
      ))}
      </div>
    </section>
  );
}
