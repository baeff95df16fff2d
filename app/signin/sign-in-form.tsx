"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { signInErrorMessage } from "./error-message";

/** E-mail and password through next-auth's credentials callback (CSRF token included by signIn). */
export function SignInForm({ initialError, returnTo }: { initialError?: string; returnTo: string }) {
  const [error, setError] = useState(initialError ? signInErrorMessage(initialError) : undefined);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      // A full navigation, so the server renders the app with the new session cookie.
      window.location.assign(returnTo);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? "Unreachable"));
  }

  return (
    <form onSubmit={submit} aria-describedby={error ? "signin-error" : undefined}>
      {error && (
        <div id="signin-error">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      <Field id="email" label="E-mail">
        <input id="email" name="email" type="email" className="input" autoComplete="username" required autoFocus aria-invalid={error ? true : undefined} />
      </Field>
      <Field id="password" label="Password">
        <input id="password" name="password" type="password" className="input" autoComplete="current-password" required aria-invalid={error ? true : undefined} />
      </Field>
      <Button type="submit" variant="primary" block loading={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
