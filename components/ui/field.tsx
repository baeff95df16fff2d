import type { ReactNode } from "react";

/**
 * A labelled form control with an optional hint and error. The control passed
 * as `children` must carry `id={id}`; hint and error are linked to it through
 * `describedBy(id)` so screen readers read them with the label.
 */
export function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <span id={`${id}-hint`} className="field-hint">{hint}</span>}
      {error && <span id={`${id}-error`} className="field-error">{error}</span>}
    </div>
  );
}

/** The aria-describedby value for a Field's control. */
export function describedBy(id: string, options: { hint?: boolean; error?: boolean }): string | undefined {
  const ids = [options.hint && `${id}-hint`, options.error && `${id}-error`].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/**
 * A field where someone chooses a password: the browser may offer to generate
 * one, and the minimum length is enforced and, with `hint`, said beside it.
 */
export function NewPasswordField({ id, name, label, minLength, hint = false }: { id: string; name: string; label: string; minLength: number; hint?: boolean }) {
  return (
    <Field id={id} label={label} hint={hint ? `At least ${minLength} characters.` : undefined}>
      <input id={id} name={name} type="password" className="input" required minLength={minLength} autoComplete="new-password" aria-describedby={describedBy(id, { hint })} />
    </Field>
  );
}
