"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ErrorState, fetchJson } from "@/components/ui";
import { parseDocumentId, type SetView } from "@/lib/sets/types";
import { ComparisonView } from "./comparison-view";
import { DocumentsView } from "./documents-view";
import type { Selection } from "./selection";
import { FileDropzone } from "./file-dropzone";
import { takeUploads } from "./pending-uploads";
import { UploadList } from "./upload-list";
import { nextPollInterval } from "./poll-interval";
import { PresentationStatus } from "./presentation-status";
import { SetHistory } from "./set-history";
import { setQueryKey } from "./set-query";
import { useUploads } from "./use-uploads";

type Tab = "documents" | "comparison" | "history";
const TABS: { id: Tab; label: string }[] = [
  { id: "documents", label: "Documents" },
  { id: "comparison", label: "Comparison" },
  { id: "history", label: "History" },
];

/** The set page's interactive part: uploads, analysis status, splits with their pages, and the comparison. */
export function SetWorkspace({ initial }: { initial: SetView }) {
  const setId = initial.set.id;
  const client = useQueryClient();
  // React Query asks for the interval on every render, so the wait advances only
  // once per completed read (dataUpdatedAt); structural sharing keeps the same
  // object when a read brought nothing new, which is how "changed" is told.
  const poll = useRef<{ readAt: number; data: SetView | undefined; waitMs: number | null }>({
    readAt: -1,
    data: undefined,
    waitMs: null,
  });
  const query = useQuery({
    queryKey: setQueryKey(setId),
    queryFn: ({ signal }) => fetchJson<SetView>(`/api/sets/${encodeURIComponent(setId)}`, { signal }),
    initialData: initial,
    // While a file waits for or is in analysis; never once the set is settled.
    refetchInterval: (q) => {
      const data = q.state.data;
      if (!data || data.settled) return false;
      const state = poll.current;
      if (q.state.dataUpdatedAt !== state.readAt) {
        state.waitMs = nextPollInterval(state.waitMs, data !== state.data);
        state.readAt = q.state.dataUpdatedAt;
        state.data = data;
      }
      return state.waitMs ?? false;
    },
  });
  const refresh = useCallback(() => void client.invalidateQueries({ queryKey: setQueryKey(setId) }), [client, setId]);
  const { uploads, add } = useUploads(setId, refresh);
  const [tab, setTab] = useState<Tab>("documents");
  const [selection, setSelection] = useState<Selection | null>(null);

  // Files chosen on the "new set" page start uploading as soon as this page shows.
  useEffect(() => {
    const stashed = takeUploads(setId);
    if (stashed.length) add(stashed);
  }, [setId, add]);

  const view = query.data;
  // The tab counts the findings still awaiting a decision.
  const findingCount = view.examination?.findings.filter((f) => f.severity !== "info" && !f.decision).length ?? 0;

  function openDocument(documentId: string, page?: number) {
    const target = parseDocumentId(documentId);
    if (!target) return;
    setSelection({ ...target, page });
    setTab("documents");
  }

  return (
    <div className="workspace">
      {query.error && <ErrorState title="The set could not be refreshed" message={query.error.message} onRetry={refresh} />}
      <section className="upload-strip" aria-label="Files">
        <UploadList files={view.files} uploads={uploads} />
        <FileDropzone compact onFiles={add} />
      </section>
      {view.settled && <PresentationStatus view={view} />}
      <div className="tabs" role="tablist" aria-label="Set views">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            role="tab"
            type="button"
            className="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
              const next = TABS[(i + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length]!;
              setTab(next.id);
              document.getElementById(`tab-${next.id}`)?.focus();
            }}
          >
            {t.label}
            {t.id === "comparison" && view.examination && (
              <span className={findingCount ? "tab-count tab-count-alert" : "tab-count"}>{findingCount}</span>
            )}
          </button>
        ))}
      </div>
      <div id="panel-documents" role="tabpanel" aria-labelledby="tab-documents" hidden={tab !== "documents"}>
        <DocumentsView view={view} selection={selection} onSelect={setSelection} />
      </div>
      <div id="panel-comparison" role="tabpanel" aria-labelledby="tab-comparison" hidden={tab !== "comparison"}>
        <ComparisonView view={view} onOpen={openDocument} />
      </div>
      <div id="panel-history" role="tabpanel" aria-labelledby="tab-history" hidden={tab !== "history"}>
        <SetHistory history={view.history} />
      </div>
    </div>
  );
}
