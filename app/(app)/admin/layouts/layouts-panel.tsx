"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { labelOfKey } from "@/components/sets/format";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDateTime } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { ADMIN_QUERY_KEYS, type LearnedLayoutItem } from "../types";

const pagesOf = (pages: number[]) => (pages.length === 1 ? `p. ${pages[0]}` : `pp. ${pages[0]}–${pages.at(-1)}`);

/** The layouts the organization's checkers taught, each with where its fields were taught; forgetting one is one click and a confirmation. */
export function LayoutsPanel() {
  const queryClient = useQueryClient();
  const layouts = useQuery({
    queryKey: ADMIN_QUERY_KEYS.layouts,
    queryFn: ({ signal }) => fetchJson<{ layouts: LearnedLayoutItem[] }>("/api/admin/layouts", { signal }).then((body) => body.layouts),
  });
  const [forgetting, setForgetting] = useState<LearnedLayoutItem | null>(null);
  const forget = useMutation({
    mutationFn: (id: string) => fetchJson(`/api/admin/layouts/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      setForgetting(null);
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.layouts });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });

  return (
    <>
      <Panel
        title="Learned layouts"
        description="When a checker corrects a value, the document's layout (its issuer and where its labels sit) remembers where the value is printed, and the next document of that layout is read from there. Forget a layout to read its documents by the usual rules again."
        flush
      >
        {layouts.isPending ? (
          <LoadingBlock label="Loading learned layouts…" />
        ) : layouts.isError ? (
          <div className="panel-body">
            <ErrorState title="The learned layouts could not be loaded" message={layouts.error.message} onRetry={() => void layouts.refetch()} />
          </div>
        ) : layouts.data.length === 0 ? (
          <EmptyState title="No learned layouts yet">Correcting a value on a document in a set teaches its layout.</EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Document</th>
                  <th scope="col">Issuer</th>
                  <th scope="col">Fields taught</th>
                  <th scope="col">Taught by</th>
                  <th scope="col">Last taught</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {layouts.data.map((layout) => (
                  <tr key={layout.id}>
                    <td>
                      {layout.documentType} <span className="muted mono">#{layout.fingerprintId}</span>
                    </td>
                    <td>{layout.issuer || <span className="muted">Not read</span>}</td>
                    <td>
                      <ul style={{ margin: 0, paddingLeft: "1rem" }}>
                        {layout.fields.map((f) => (
                          <li key={f.field}>
                            {labelOfKey(f.field)}: from <Link href={`/sets/${encodeURIComponent(f.setId)}`}>{f.fileName}</Link> {pagesOf(f.pages)} in {f.setName}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{layout.createdByEmail ?? <span className="muted">Unknown</span>}</td>
                    <td className="nowrap">{formatDateTime(layout.updatedAt)}</td>
                    <td className="actions">
                      <Button size="sm" variant="ghost-danger" onClick={() => { forget.reset(); setForgetting(layout); }} aria-label={`Forget the ${layout.documentType} layout of ${layout.issuer || "an unread issuer"}`}>
                        Forget
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <ConfirmDialog
        open={forgetting !== null}
        title="Forget this layout?"
        confirmLabel="Forget layout"
        tone="danger"
        pending={forget.isPending}
        error={forget.error?.message}
        onConfirm={() => forgetting && forget.mutate(forgetting.id)}
        onCancel={() => setForgetting(null)}
      >
        {forgetting && (
          <p style={{ margin: 0 }}>
            The next {forgetting.documentType} of <strong>{forgetting.issuer || "this issuer"}</strong> in this layout is read by the usual rules again. Documents already read keep their values.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
