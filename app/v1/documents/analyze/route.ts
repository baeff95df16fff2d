import { getDb } from "@/db/client";
import { analyzeRequest } from "@/lib/api/analyze";
import { withApiKey } from "@/lib/api/handler";

/** POST /v1/documents/analyze — see lib/api/analyze.ts and GET /v1/openapi.json. */
export const POST = withApiKey(analyzeRequest, { openDb: getDb });
