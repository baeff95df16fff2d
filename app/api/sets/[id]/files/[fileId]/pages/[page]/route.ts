import { pageSheetRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string; fileId: string; page: string }> },
): Promise<Response> {
  const { id, fileId, page } = await params;
  return pageSheetRoute(id, fileId, page)(request);
}
