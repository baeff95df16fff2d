import { exportSetRoute } from "@/lib/sets/api/review-routes";

export const dynamic = "force-dynamic";

export const GET = exportSetRoute;
