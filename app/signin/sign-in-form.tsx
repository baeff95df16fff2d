"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, NewPasswordField } from "@/components/ui/field";
import { NEW_PASSWORD_INVALID_ERROR, PASSWORD_CHANGE_REQUIRED_ERROR } from "@/lib/auth/error-codes";
import { PASSWORD_MIN_LENGTH } from "@/lib/services/password-policy";
import { signInErrorMessage } from "./error-message";

/**
 * E-mail and password through next-auth's credentials callback (CSRF token
 * included by signIn). After an admin's reset the server refuses the
 * temporary password alone: the form then asks for a new one and signs in
 * with both.
 */
export function SignInForm({ initialError, returnTo }: { initialError?: string; returnTo: string }) {
  const [error, setError] = useState(initialError ? signInErrorMessage(initialError) : undefined);
  const [pending, setPending] = useState(false);
  const [choosingPassword, setChoosingPassword] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword") ?? "");
    if (choosingPassword && newPassword !== String(form.get("confirmPassword") ?? "")) {
      setError("The two new passwords differ.");
      return;
    }
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      ...(choosingPassword ? { newPassword } : {}),
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      // A full navigation, so the server renders the app with the new session cookie.
      window.location.assign(returnTo);
      return;
    }
    const code = result?.error ?? "Unreachable";
    if (code === PASSWORD_CHANGE_REQUIRED_ERROR || code === NEW_PASSWORD_INVALID_ERROR) setChoosingPassword(true);
    setPending(false);
    setError(signInErrorMessage(code));
  }

  const passwordLabel = choosingPassword ? "Temporary password" : "Password";
  return (
    <form onSubmit={submit} aria-describedby={error ? "signin-error" : undefined}>
      {error && (
        <div id="signin-error">
          <Alert tone={choosingPassword ? "info" : "danger"}>{error}</Alert>
        </div>
      )}
      <Field id="email" label="E-mail">
        <input id="email" name="email" type="email" className="input" autoComplete="username" required autoFocus aria-invalid={error && !choosingPassword ? true : undefined} />
      </Field>
      <Field id="password" label={passwordLabel}>
        <input id="password" name="password" type="password" className="input" autoComplete="current-password" required aria-invalid={error && !choosingPassword ? true : undefined} />
      </Field>
      {choosingPassword && (
        <>
          <NewPasswordField id="newPassword" name="newPassword" label="New password" minLength={PASSWORD_MIN_LENGTH} hint />
          <NewPasswordField id="confirmPassword" name="confirmPassword" label="New password again" minLength={PASSWORD_MIN_LENGTH} />
        </>
      )}
      <Button type="submit" variant="primary" block loading={pending}>
        {pending ? "Signing in…" : choosingPassword ? "Set password and sign in" : "Sign in"}
      </Button>
    </form>
  );
}
