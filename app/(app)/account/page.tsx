import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireMember } from "@/lib/auth/session";
import { PASSWORD_MIN_LENGTH } from "@/lib/services/password-policy";
import { AccountPanel } from "./account-panel";

export const metadata: Metadata = { title: "Your account — Shipshape" };

/** Every signed-in person's own page: their password and their sessions. */
export default async function AccountPage() {
  const session = await requireMember();
  return (
    <>
      <PageHeader title="Your account" description={`Signed in as ${session.email}.`} />
      <AccountPanel passwordMinLength={PASSWORD_MIN_LENGTH} />
    </>
  );
}
