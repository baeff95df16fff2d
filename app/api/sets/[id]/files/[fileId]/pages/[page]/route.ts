import { pageSheetRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export const GET = pageSheetRoute;
