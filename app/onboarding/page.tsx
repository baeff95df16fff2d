import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Brand } from "@/components/app-shell/brand";
import { getDb } from "@/db/client";
import { PASSWORD_MIN_LENGTH } from "@/lib/services/create-user";
import { hasAnyUser } from "@/lib/services/has-any-user";
import { OnboardingForm } from "./onboarding-form";

export const metadata: Metadata = { title: "Set up Shipshape" };
export const dynamic = "force-dynamic";

/** First run only: once anyone can sign in, this page does not exist. */
export default async function OnboardingPage() {
  if (await hasAnyUser(await getDb())) notFound();
  return (
    <main className="auth-page">
      <div className="auth-card auth-card-wide">
        <Brand />
        <h1>Set up Shipshape</h1>
        <p className="intro">
          Create your organization and its first administrator. Administrators issue API keys and add the rest of
          the team.
        </p>
        <OnboardingForm passwordMinLength={PASSWORD_MIN_LENGTH} />
      </div>
    </main>
  );
}
