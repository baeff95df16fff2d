import { getDb } from "@/db/client";
import { analysisStatusRequest } from "@/lib/api/analysis-status";
import { withApiKey } from "@/lib/api/handler";

/** GET /v1/analyses/{id} — see lib/api/analysis-status.ts and GET /v1/openapi.json. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return withApiKey(analysisStatusRequest(id), { openDb: getDb })(request);
}
