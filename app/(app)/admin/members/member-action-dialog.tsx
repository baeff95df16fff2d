"use client";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { ACTION_TEXT, type MemberAction } from "./member-actions";

/**
 * Asks before a member action, then, for a password reset, shows the
 * temporary password once (it is never stored in the clear or shown again).
 */
export function MemberActionDialog({
  action,
  pending,
  error,
  temporaryPassword,
  selfDemotion,
  onConfirm,
  onClose,
}: {
  action: MemberAction | null;
  pending: boolean;
  error?: string;
  temporaryPassword?: string;
  selfDemotion: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  if (action && temporaryPassword) {
    return (
      <Dialog
        open
        onClose={onClose}
        title="Pass on the temporary password"
        description={`Give it to ${action.member.email} through a channel you trust. It is shown only now; with it they choose their own password when they sign in.`}
        footer={<Button variant="primary" onClick={onClose}>Done</Button>}
      >
        <div className="form-actions">
          <code data-testid="temporary-password">{temporaryPassword}</code>
          <CopyButton value={temporaryPassword} label="Copy temporary password" />
        </div>
      </Dialog>
    );
  }
  const text = action ? ACTION_TEXT[action.kind] : undefined;
  return (
    <ConfirmDialog
      open={action !== null}
      title={text?.title ?? ""}
      confirmLabel={text?.label ?? ""}
      tone={text?.tone ?? "primary"}
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onCancel={onClose}
    >
      {action && text && (
        <p style={{ margin: 0 }}>
          {text.explain(action.member.email)}
          {selfDemotion && " You will lose access to this page."}
        </p>
      )}
    </ConfirmDialog>
  );
}
