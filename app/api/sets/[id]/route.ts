import { deleteSetRoute, getSetRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export const GET = getSetRoute;
export const DELETE = deleteSetRoute;
