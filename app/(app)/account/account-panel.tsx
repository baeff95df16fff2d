"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { fetchJson } from "@/components/ui/fetch-json";
import { Field, NewPasswordField } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";

/** Both actions end this session too, so each ends on the sign-in page. */
const leave = () => window.location.assign("/signin");

export function AccountPanel({ passwordMinLength }: { passwordMinLength: number }) {
  const [mismatch, setMismatch] = useState(false);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => fetchJson("/api/auth/password", { method: "POST", body }),
    onSuccess: leave,
  });
  const signOutEverywhere = useMutation({ mutationFn: () => fetchJson("/api/auth/sessions", { method: "DELETE" }), onSuccess: leave });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword") ?? "");
    const differs = newPassword !== String(form.get("confirmPassword") ?? "");
    setMismatch(differs);
    if (!differs) change.mutate({ currentPassword: String(form.get("currentPassword") ?? ""), newPassword });
  }

  return (
    <>
      <Panel title="Change your password" description="You are signed out everywhere afterwards, and sign in again with the new password.">
        <form onSubmit={submit}>
          <Field id="current-password" label="Current password">
            <input id="current-password" name="currentPassword" type="password" className="input" required autoComplete="current-password" />
          </Field>
          <NewPasswordField id="new-password" name="newPassword" label="New password" minLength={passwordMinLength} hint />
          <NewPasswordField id="confirm-password" name="confirmPassword" label="New password again" minLength={passwordMinLength} />
          {mismatch && <Alert tone="danger">The two new passwords differ.</Alert>}
          {change.error && <Alert tone="danger">{change.error.message}</Alert>}
          <div className="form-actions" style={{ marginTop: "1rem" }}>
            <Button type="submit" variant="primary" loading={change.isPending}>
              {change.isPending ? "Changing…" : "Change password"}
            </Button>
          </div>
        </form>
      </Panel>
      <Panel title="Sessions" description="Signed in on a computer you no longer use, or one someone else may use? End every session of yours, this one included.">
        <Button variant="danger" onClick={() => setConfirmingSignOut(true)}>
          Sign out everywhere
        </Button>
      </Panel>
      <ConfirmDialog
        open={confirmingSignOut}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        tone="danger"
        pending={signOutEverywhere.isPending}
        error={signOutEverywhere.error?.message}
        onConfirm={() => signOutEverywhere.mutate()}
        onCancel={() => setConfirmingSignOut(false)}
      >
        <p style={{ margin: 0 }}>Every session of yours, on every device, ends now. You then sign in again here.</p>
      </ConfirmDialog>
    </>
  );
}
