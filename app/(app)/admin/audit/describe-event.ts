import type { AuditItem } from "../types";

const ACTIONS: Record<string, string> = {
  "api_key.created": "API key issued",
  "api_key.revoked": "API key revoked",
  "user.created": "Member added",
  "membership.added": "Member added",
  "membership.role_changed": "Role changed",
  "membership.removed": "Member removed",
  "membership.disabled": "Member disabled",
  "membership.enabled": "Member enabled",
  "session.revoked_all": "Signed out everywhere",
  "user.password_reset": "Password reset",
  "user.password_changed": "Password changed",
  "document_set.deleted": "Document set deleted",
  "layout.forgotten": "Learned layout forgotten",
  "session.signed_in": "Signed in",
  "session.signed_out": "Signed out",
  "session.sign_in_failed": "Failed sign-in",
  "auth.failed": "API call refused",
};

/** An audit action in words; unknown actions (from newer code) show as recorded. */
export function describeAction(action: string): string {
  return ACTIONS[action] ?? action;
}

/** The one line of context an admin needs for an event, built from its recorded detail. */
export function describeDetail(event: AuditItem): string {
  const detail = event.detail;
  const text = (key: string) => (typeof detail[key] === "string" ? (detail[key] as string) : undefined);
  switch (event.action) {
    case "api_key.created":
    case "api_key.revoked":
      return [text("name"), text("kind"), text("start") && `${text("start")}…`].filter(Boolean).join(" · ");
    case "user.created":
    case "membership.added":
      return [text("email"), text("role")].filter(Boolean).join(" as ");
    case "membership.role_changed":
      return `${event.targetEmail ?? event.target ?? "member"}: ${text("from") ?? "?"} → ${text("to") ?? "?"}`;
    case "auth.failed":
      return [text("start") && `${text("start")}…`, text("reason")].filter(Boolean).join(" · ");
    default: {
      // Sign-in events: the person is already in the "By" column unless someone else acted on them.
      const target = event.target !== event.actor ? event.targetEmail : null;
      return [target, text("ip") && `from ${text("ip")}`].filter(Boolean).join(" ");
    }
  }
}
