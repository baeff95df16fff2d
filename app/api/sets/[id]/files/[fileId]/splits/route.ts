import { correctSplitRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export const PATCH = correctSplitRoute;
