import { deleteDocumentSet } from "@/lib/services/delete-document-set";
import { withMember } from "@/lib/sets/api/respond";
import { getSetRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return getSetRoute((await params).id)(request);
}

/** DELETE /api/sets/{id} — the set's creator or an admin (403 otherwise), audited. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  const setId = (await params).id;
  return withMember(async (_request, { db, member }) => {
    await deleteDocumentSet(db, { organizationId: member.organizationId, setId, deletedBy: member.userId });
    return new Response(null, { status: 204 });
  }, { mutation: true })(request);
}
