import type { ButtonHTMLAttributes } from "react";

/** `ghost-danger`: a quiet destructive action in a table row (e.g. Revoke), red only in its text. */
type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "ghost-danger";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: "md" | "sm";
  /** Shows a spinner and disables the button while work is in flight. */
  loading?: boolean;
  block?: boolean;
}

/** A button that is `type="button"` unless told otherwise, so it never submits a form by accident. */
export function Button({ variant = "secondary", size = "md", loading = false, block = false, className, disabled, children, type = "button", ...rest }: ButtonProps) {
  const classes = ["btn", `btn-${variant}`, size === "sm" && "btn-sm", block && "btn-block", className].filter(Boolean).join(" ");
  return (
    <button type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {loading && <span className="spinner-ring" aria-hidden="true" />}
      {children}
    </button>
  );
}
