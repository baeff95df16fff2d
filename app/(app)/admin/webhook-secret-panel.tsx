"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDateTime } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { ADMIN_QUERY_KEYS, type RotatedWebhookSecret, type WebhookSecretItem } from "./types";

/** The organization's webhook signing secret: its start and date, and a new one shown once. */
export function WebhookSecretPanel() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ADMIN_QUERY_KEYS.webhookSecret,
    queryFn: ({ signal }) => fetchJson<WebhookSecretItem>("/api/admin/webhook-secret", { signal }),
  });
  const rotate = useMutation({
    mutationFn: () => fetchJson<RotatedWebhookSecret>("/api/admin/webhook-secret", { method: "POST" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.webhookSecret });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });
  const configured = current.data?.configured ?? false;

  return (
    <Panel
      title="Webhooks"
      description="An analysis sent with a callback_url is posted there when it ends, signed with this secret (the Shipshape-Signature header; see /docs)."
      actions={
        current.data && (
          <Button variant={configured ? "secondary" : "primary"} onClick={() => rotate.mutate()} disabled={rotate.isPending}>
            {configured ? "Rotate secret" : "Create secret"}
          </Button>
        )
      }
    >
      {current.isPending ? (
        <LoadingBlock label="Loading the webhook secret…" />
      ) : current.isError ? (
        <ErrorState title="The webhook secret could not be loaded" message={current.error.message} onRetry={() => void current.refetch()} />
      ) : rotate.data ? (
        <div className="field">
          <span className="field-label">New webhook secret (shown once: store it with your receiver now)</span>
          <div className="secret-box">
            <code data-testid="new-webhook-secret">{rotate.data.secret}</code>
            <CopyButton value={rotate.data.secret} label="Copy webhook secret" />
          </div>
        </div>
      ) : configured && current.data.start && current.data.createdAt ? (
        <p style={{ margin: 0 }}>
          Secret <span className="mono">{current.data.start}…</span> created {formatDateTime(current.data.createdAt)}. Rotating replaces it at once.
        </p>
      ) : (
        <p style={{ margin: 0 }}>No secret yet: requests with a callback_url are refused until one exists.</p>
      )}
      {rotate.isError && <Alert tone="danger">{rotate.error.message}</Alert>}
    </Panel>
  );
}
