import { createSetRoute, listSetsRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export const GET = listSetsRoute;
export const POST = createSetRoute;
