import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui";
import { NewSetForm } from "@/components/sets/new-set-form";
import { requireMember } from "@/lib/auth/session";

export const metadata: Metadata = { title: "New document set · Shipshape" };

export default async function NewSetPage() {
  await requireMember();
  return (
    <>
      <PageHeader
        title="New document set"
        description="One presentation under a credit: the credit itself, the invoice, transport document and certificates."
        actions={<Link href="/sets" className="btn btn-secondary">Cancel</Link>}
      />
      <NewSetForm />
    </>
  );
}
