import { correctFieldRoute } from "@/lib/sets/api/review-routes";

export const dynamic = "force-dynamic";

export async function PUT(request: Request, { params }: { params: Promise<{ id: string; fileId: string }> }): Promise<Response> {
  const { id, fileId } = await params;
  return correctFieldRoute(id, fileId)(request);
}
