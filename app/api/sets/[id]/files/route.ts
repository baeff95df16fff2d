import { uploadFileRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export const POST = uploadFileRoute;
