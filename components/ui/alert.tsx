import type { ReactNode } from "react";

export type AlertTone = "danger" | "warning" | "info" | "success";

/** An inline message. Errors and warnings are announced to screen readers at once. */
export function Alert({ tone = "info", title, children, action }: { tone?: AlertTone; title?: string; children?: ReactNode; action?: ReactNode }) {
  const urgent = tone === "danger" || tone === "warning";
  return (
    <div className={`alert alert-${tone}`} role={urgent ? "alert" : "status"}>
      <div>
        {title && <p className="alert-title">{title}</p>}
        {children && <div className={title ? "alert-body" : undefined}>{children}</div>}
      </div>
      {action && <div className="alert-action">{action}</div>}
    </div>
  );
}
