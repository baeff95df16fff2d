import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Brand } from "@/components/app-shell/brand";
import { Alert } from "@/components/ui/alert";
import { getDb } from "@/db/client";
import { getSession, HOME_PATH } from "@/lib/auth/session";
import { hasAnyUser } from "@/lib/services/has-any-user";
import { safeReturnPath } from "@/lib/auth/return-path";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in — Shipshape" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSession()) redirect(HOME_PATH);
  // A fresh installation has nobody to sign in as: the first-run page creates the first admin.
  if (!(await hasAnyUser(await getDb()))) redirect("/onboarding");
  const params = await searchParams;
  const error = typeof params.error === "string" ? params.error : undefined;
  const returnTo = safeReturnPath(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <Brand />
        <h1>Sign in</h1>
        <p className="intro">Use the e-mail and password your administrator gave you.</p>
        {params.created === "1" && !error && (
          <Alert tone="success">Your organization is ready. Sign in with the administrator account you just created.</Alert>
        )}
        <SignInForm initialError={error} returnTo={returnTo} />
      </div>
      <p className="auth-footer">
        Calling the API from code? See the <a href="/docs">API reference</a>.
      </p>
    </main>
  );
}
