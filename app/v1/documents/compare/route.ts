import { getDb } from "@/db/client";
import { compareRequest } from "@/lib/api/compare";
import { withApiKey } from "@/lib/api/handler";

/** POST /v1/documents/compare — see lib/api/compare.ts and GET /v1/openapi.json. */
export const POST = withApiKey(compareRequest, { openDb: getDb });
