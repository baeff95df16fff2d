import { decideFindingRoute } from "@/lib/sets/api/review-routes";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return decideFindingRoute((await params).id)(request);
}
