import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDate, PageHeader } from "@/components/ui";
import { DeleteSetButton } from "@/components/sets/delete-set-button";
import { SetWorkspace } from "@/components/sets/set-workspace";
import { getDb } from "@/db/client";
import { withOrganizationScope } from "@/db/scope";
import { requireMember } from "@/lib/auth/session";
import { ApiError } from "@/lib/errors";
import { getSet } from "@/lib/sets/get-set";

export const metadata: Metadata = { title: "Document set · Shipshape" };
export const dynamic = "force-dynamic";

export default async function SetPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const db = await getDb();
  const view = await withOrganizationScope(member.organizationId, () => getSet(db, { organizationId: member.organizationId, setId: id })).catch((error: unknown) => {
    // Another organization's set and a set that does not exist look the same.
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  });
  const date = view.set.presentationDate ? `Presented ${formatDate(view.set.presentationDate)}` : "No presentation date: examined as of today";
  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb"><Link href="/sets">Document sets</Link> /</nav>
      <PageHeader
        title={view.set.name}
        description={date}
        actions={<DeleteSetButton setId={view.set.id} name={view.set.name} />}
      />
      <SetWorkspace initial={view} />
    </>
  );
}
