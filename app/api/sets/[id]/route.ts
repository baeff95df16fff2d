import { deleteSetRoute, getSetRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return getSetRoute((await params).id)(request);
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return deleteSetRoute((await params).id)(request);
}
