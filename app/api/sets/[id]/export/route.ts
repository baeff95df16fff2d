import { exportSetRoute } from "@/lib/sets/api/review-routes";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return exportSetRoute((await params).id)(request);
}
