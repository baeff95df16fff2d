import type { ReactNode } from "react";

/** A bordered section with a titled header; `flush` drops the body padding for edge-to-edge tables. */
export function Panel({ title, description, actions, flush = false, children, labelledBy }: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  flush?: boolean;
  children: ReactNode;
  labelledBy?: string;
}) {
  const headingId = labelledBy ?? `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <div className="panel-header">
        <div>
          <h2 id={headingId}>{title}</h2>
          {description && <p>{description}</p>}
        </div>
        {actions}
      </div>
      <div className={flush ? undefined : "panel-body"}>{children}</div>
    </section>
  );
}
