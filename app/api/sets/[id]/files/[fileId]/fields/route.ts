import { correctFieldRoute } from "@/lib/sets/api/review-routes";

export const dynamic = "force-dynamic";

export const PUT = correctFieldRoute;
