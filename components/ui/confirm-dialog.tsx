"use client";

import type { ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** "danger" for actions that cannot be undone. */
  tone?: "primary" | "danger";
  pending?: boolean;
  /** The last attempt's failure, shown inside the dialog. */
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action; Cancel has focus first so Enter never confirms a destructive action by accident. */
export function ConfirmDialog({ open, title, children, confirmLabel, tone = "primary", pending = false, error, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      footer={
        <>
          <Button autoFocus onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error && (
        <div style={{ marginTop: children ? "0.75rem" : 0 }}>
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
    </Dialog>
  );
}
