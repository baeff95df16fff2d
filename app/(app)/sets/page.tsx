import type { Metadata } from "next";
import Link from "next/link";
import { Badge, EmptyState, formatDate, formatDateTime, PageHeader } from "@/components/ui";
import { getDb } from "@/db/client";
import { withOrganizationScope } from "@/db/scope";
import { requireMember } from "@/lib/auth/session";
import { listSets } from "@/lib/sets/list-sets";
import type { SetSummary } from "@/lib/sets/types";

export const metadata: Metadata = { title: "Document sets · Shipshape" };
export const dynamic = "force-dynamic";

function SetStatus({ set }: { set: SetSummary }) {
  if (set.fileCount === 0) return <Badge>No files</Badge>;
  if (set.analyzingCount > 0) return <Badge tone="info">Analysing {set.analyzingCount}</Badge>;
  if (set.failedCount > 0) return <Badge tone="danger">{set.failedCount} failed</Badge>;
  return <Badge tone="success">Analysed</Badge>;
}

export default async function SetsPage() {
  const member = await requireMember();
  const db = await getDb();
  const sets = await withOrganizationScope(member.organizationId, () => listSets(db, { organizationId: member.organizationId }));
  const newSet = <Link href="/sets/new" className="btn btn-primary">New set</Link>;
  return (
    <>
      <PageHeader title="Document sets" description="Presentations uploaded by your organization: split, read and compared." actions={newSet} />
      {sets.length === 0 ? (
        <div className="panel">
          <EmptyState title="No document sets yet" action={newSet}>
            A set is one presentation under a credit: upload its files, and Shipshape splits them into documents, reads them and lines up their facts.
          </EmptyState>
        </div>
      ) : (
        <div className="panel">
          <div className="table-scroll">
            <table className="data-table sets-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Presentation date</th>
                  <th scope="col" className="num">Files</th>
                  <th scope="col" className="num">Pages</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {sets.map((set) => (
                  <tr key={set.id}>
                    <td><Link href={`/sets/${set.id}`} className="set-link">{set.name}</Link></td>
                    <td className="nowrap">{set.presentationDate ? formatDate(set.presentationDate) : <span className="muted">Today</span>}</td>
                    <td className="num">{set.fileCount}</td>
                    <td className="num">{set.pageCount}</td>
                    <td><SetStatus set={set} /></td>
                    <td className="nowrap muted">{formatDateTime(set.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </>
  );
}
