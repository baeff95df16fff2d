"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDate, formatDateTime } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { IssueKeyDialog } from "./issue-key-dialog";
import { ADMIN_QUERY_KEYS, type ApiKeyItem } from "./types";

const STATUS_TONE: Record<ApiKeyItem["status"], BadgeTone> = { active: "success", revoked: "neutral", expired: "warning" };

export function KeysPanel() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ADMIN_QUERY_KEYS.keys,
    queryFn: ({ signal }) => fetchJson<{ keys: ApiKeyItem[] }>("/api/admin/keys", { signal }).then((body) => body.keys),
  });
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyItem | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => fetchJson(`/api/admin/keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.keys });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });

  const issueButton = (
    <Button variant="primary" onClick={() => setIssuing(true)}>
      Issue API key
    </Button>
  );

  return (
    <>
      <Panel
        title="API keys"
        description="Keys authenticate calls to the document API. Production keys never expire; sandbox keys expire after 28 days."
        actions={keys.data && keys.data.length > 0 ? issueButton : undefined}
        flush
      >
        {keys.isPending ? (
          <LoadingBlock label="Loading API keys…" />
        ) : keys.isError ? (
          <div className="panel-body">
            <ErrorState title="The API keys could not be loaded" message={keys.error.message} onRetry={() => void keys.refetch()} />
          </div>
        ) : keys.data.length === 0 ? (
          <EmptyState title="No API keys yet" action={issueButton}>
            Issue a sandbox key to try the API, or a production key for your integration.
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name ?? <span className="muted">Unnamed</span>}</td>
                    <td>
                      <Badge tone={key.kind === "production" ? "info" : "neutral"}>{key.kind}</Badge>
                    </td>
                    <td className="nowrap">
                      <span className="mono">{key.start}…</span>
                    </td>
                    <td className="nowrap">{formatDateTime(key.createdAt)}</td>
                    <td className="nowrap">{key.expiresAt ? formatDate(key.expiresAt) : <span className="muted">Never</span>}</td>
                    <td className="nowrap">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : <span className="muted">Never</span>}</td>
                    <td>
                      <Badge tone={STATUS_TONE[key.status]}>{key.status}</Badge>
                    </td>
                    <td className="actions">
                      {key.status === "active" && (
                        <Button size="sm" variant="ghost-danger" onClick={() => { revoke.reset(); setRevoking(key); }} aria-label={`Revoke ${key.name ?? key.start}`}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <IssueKeyDialog open={issuing} onClose={() => setIssuing(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        tone="danger"
        pending={revoke.isPending}
        error={revoke.error?.message}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onCancel={() => setRevoking(null)}
      >
        {revoking && (
          <p style={{ margin: 0 }}>
            <strong>{revoking.name ?? "This key"}</strong> (<span className="mono">{revoking.start}…</span>) stops working on its next
            request. Anything still using it will get 401 errors. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
