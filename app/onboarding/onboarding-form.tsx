"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { describedBy, Field, NewPasswordField } from "@/components/ui/field";
import { createFirstAdminAction, type OnboardingState } from "./actions";

export function OnboardingForm({ passwordMinLength }: { passwordMinLength: number }) {
  const [state, action, pending] = useActionState<OnboardingState, FormData>(createFirstAdminAction, {});
  return (
    <form action={action}>
      {state.error && <Alert tone="danger">{state.error}</Alert>}
      <Field id="setupToken" label="Setup token" hint="Printed by npm start on the server's console (or the SETUP_TOKEN the operator set).">
        <input id="setupToken" name="setupToken" className="input" required autoFocus autoComplete="off" spellCheck={false} aria-describedby={describedBy("setupToken", { hint: true })} />
      </Field>
      <Field id="organizationName" label="Organization name">
        <input id="organizationName" name="organizationName" className="input" required autoComplete="organization" defaultValue={state.values?.organizationName} />
      </Field>
      <Field id="email" label="Your e-mail">
        <input id="email" name="email" type="email" className="input" required autoComplete="username" defaultValue={state.values?.email} />
      </Field>
      <div className="form-row">
        <NewPasswordField id="password" name="password" label="Password" minLength={passwordMinLength} hint />
        <NewPasswordField id="confirmPassword" name="confirmPassword" label="Confirm password" minLength={passwordMinLength} />
      </div>
      <Button type="submit" variant="primary" block loading={pending}>
        {pending ? "Creating…" : "Create organization and administrator"}
      </Button>
    </form>
  );
}
