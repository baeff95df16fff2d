import { fileContentRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string; fileId: string }> }): Promise<Response> {
  const { id, fileId } = await params;
  return fileContentRoute(id, fileId)(request);
}
