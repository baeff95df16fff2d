import { correctSplitRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string; fileId: string }> }): Promise<Response> {
  const { id, fileId } = await params;
  return correctSplitRoute(id, fileId)(request);
}
