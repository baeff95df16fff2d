"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { createFirstAdmin } from "@/lib/services/create-first-admin";
import { ApiError } from "@/lib/errors";

export interface OnboardingState {
  error?: string;
  /** What was typed (never the password), so a refused form keeps it. */
  values?: { organizationName: string; email: string };
}

/**
 * A public POST endpoint like every server action: createFirstAdmin itself
 * refuses without the setup token and once any user exists, whatever page
 * the request came from.
 */
export async function createFirstAdminAction(_previous: OnboardingState, form: FormData): Promise<OnboardingState> {
  const organizationName = String(form.get("organizationName") ?? "");
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const setupToken = String(form.get("setupToken") ?? "");
  const values = { organizationName, email };
  if (password !== String(form.get("confirmPassword") ?? "")) return { error: "The two passwords do not match.", values };
  try {
    await createFirstAdmin(await getDb(), { organizationName, email, password, setupToken });
  } catch (error) {
    if (error instanceof ApiError) return { error: sentenceOf(error.message), values };
    throw error;
  }
  redirect("/signin?created=1");
}

/** Service messages name their field ("password: must have…"); the form shows them as a sentence. */
function sentenceOf(message: string): string {
  const text = message.replace(/^[a-zA-Z]+: /, "");
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith(".") ? "" : ".");
}
