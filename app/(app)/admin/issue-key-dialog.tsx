"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { fetchJson } from "@/components/ui/fetch-json";
import { Field } from "@/components/ui/field";
import { formatDate } from "@/components/ui/format";
import { ADMIN_QUERY_KEYS, type IssuedKey, type KeyKind } from "./types";

/** Two steps in one dialog: choose name and kind, then see the key once with a copy button. */
export function IssueKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<KeyKind>("sandbox");
  const issue = useMutation({
    mutationFn: (body: { kind: KeyKind; name: string }) => fetchJson<IssuedKey>("/api/admin/keys", { method: "POST", body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.keys });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });

  function close() {
    issue.reset();
    setKind("sandbox");
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    issue.mutate({ kind, name: String(form.get("name") ?? "") });
  }

  if (issue.data) {
    const { key, record } = issue.data;
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Copy your new API key"
        description="This is the only time the key is shown. Store it in your secret manager now: it cannot be recovered, only replaced."
        footer={<Button variant="primary" onClick={close}>Done</Button>}
      >
        <div className="field">
          <span className="field-label">{record.kind === "production" ? "Production key" : "Sandbox key"}</span>
          <div className="secret-box">
            <code data-testid="new-api-key">{key}</code>
            <CopyButton value={key} label="Copy API key" />
          </div>
        </div>
        {record.expiresAt ? (
          <Alert tone="warning">Sandbox key: expires on {formatDate(record.expiresAt)}.</Alert>
        ) : (
          <Alert tone="info">Production key: does not expire. Revoke it here when it is no longer needed.</Alert>
        )}
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={close} title="Issue an API key">
      <form onSubmit={submit} id="issue-key-form">
        <Field id="key-name" label="Name" hint="Where the key will be used, e.g. “ERP integration” (optional).">
          <input id="key-name" name="name" className="input" maxLength={100} autoComplete="off" aria-describedby="key-name-hint" />
        </Field>
        <fieldset className="radio-group">
          <legend className="field-label" style={{ marginBottom: "0.3rem" }}>Kind</legend>
          <label className="radio-card">
            <input type="radio" name="kind" value="sandbox" checked={kind === "sandbox"} onChange={() => setKind("sandbox")} />
            <span>
              <strong>Sandbox</strong>
              For trials and testing. Expires after 28 days, lower rate limit.
            </span>
          </label>
          <label className="radio-card">
            <input type="radio" name="kind" value="production" checked={kind === "production"} onChange={() => setKind("production")} />
            <span>
              <strong>Production</strong>
              For live integrations. Never expires; revoke it when done.
            </span>
          </label>
        </fieldset>
        {issue.error && <Alert tone="danger">{issue.error.message}</Alert>}
        <div className="form-actions" style={{ marginTop: "1rem" }}>
          <Button onClick={close} disabled={issue.isPending}>Cancel</Button>
          <Button type="submit" variant="primary" loading={issue.isPending}>
            {issue.isPending ? "Issuing…" : "Issue key"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
