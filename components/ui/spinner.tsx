/** A busy indicator with a visible (or screen-reader-only) label. */
export function Spinner({ label = "Loading…", size = "md", hideLabel = false }: { label?: string; size?: "md" | "lg"; hideLabel?: boolean }) {
  return (
    <span className={size === "lg" ? "spinner spinner-lg" : "spinner"} role="status" aria-live="polite">
      <span className="spinner-ring" aria-hidden="true" />
      <span className={hideLabel ? "visually-hidden" : undefined}>{label}</span>
    </span>
  );
}

/** A centred spinner for a panel or page region whose data is on its way. */
export function LoadingBlock({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} size="lg" />
    </div>
  );
}
