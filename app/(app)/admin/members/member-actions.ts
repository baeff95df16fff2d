import { fetchJson } from "@/components/ui/fetch-json";
import type { MemberItem } from "../types";

/** What an admin can do to a member from the members table; each is a call to the admin API. */
export type MemberActionKind = "make-admin" | "make-member" | "disable" | "enable" | "end-sessions" | "reset-password" | "remove";

export interface MemberAction {
  kind: MemberActionKind;
  member: MemberItem;
}

interface ActionText {
  /** The row's button, also the dialog's confirm button. */
  label: string;
  title: string;
  explain: (email: string) => string;
  tone: "primary" | "danger";
}

export const ACTION_TEXT: Record<MemberActionKind, ActionText> = {
  "make-admin": {
    label: "Make administrator",
    title: "Make this person an administrator?",
    explain: (email) => `${email} will be able to issue and revoke API keys and manage members.`,
    tone: "primary",
  },
  "make-member": {
    label: "Make member",
    title: "Remove administrator rights?",
    explain: (email) => `${email} will keep access to document sets but no longer manage keys or members.`,
    tone: "danger",
  },
  disable: {
    label: "Disable",
    title: "Disable this member?",
    explain: (email) => `${email} is signed out at their next click and cannot sign in to this organization until you enable them again.`,
    tone: "danger",
  },
  enable: { label: "Enable", title: "Enable this member?", explain: (email) => `${email} can sign in to this organization again.`, tone: "primary" },
  "end-sessions": {
    label: "Sign out everywhere",
    title: "Sign this member out everywhere?",
    explain: (email) => `Every session of ${email}, on every device, ends at its next request. They can sign in again.`,
    tone: "danger",
  },
  "reset-password": {
    label: "Reset password",
    title: "Reset this member's password?",
    explain: (email) =>
      `${email} is signed out everywhere and their password stops working. You get a temporary password to pass on; with it they choose a new password when they sign in.`,
    tone: "danger",
  },
  remove: {
    label: "Remove",
    title: "Remove this member?",
    explain: (email) => `${email} loses access to this organization at their next click. Their document sets stay with the organization.`,
    tone: "danger",
  },
};

/** The admin API call behind an action; the reset answers the temporary password, shown once. */
export async function runMemberAction({ kind, member }: MemberAction): Promise<{ temporaryPassword?: string }> {
  const base = `/api/admin/members/${encodeURIComponent(member.userId)}`;
  switch (kind) {
    case "make-admin":
    case "make-member":
      await fetchJson(base, { method: "PATCH", body: { role: kind === "make-admin" ? "admin" : "member" } });
      return {};
    case "disable":
    case "enable":
      await fetchJson(base, { method: "PATCH", body: { disabled: kind === "disable" } });
      return {};
    case "end-sessions":
      await fetchJson(`${base}/sessions`, { method: "DELETE" });
      return {};
    case "reset-password":
      return fetchJson<{ temporaryPassword: string }>(`${base}/password`, { method: "POST" });
    case "remove":
      await fetchJson(base, { method: "DELETE" });
      return {};
  }
}

/** The actions offered on a member's row: none that the server refuses for oneself. */
export function actionsFor(member: MemberItem, isSelf: boolean): MemberActionKind[] {
  const role: MemberActionKind = member.role === "admin" ? "make-member" : "make-admin";
  if (isSelf) return [role];
  return [role, member.disabled ? "enable" : "disable", "end-sessions", "reset-password", "remove"];
}
