import { uploadFileRoute } from "@/lib/sets/api/routes";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return uploadFileRoute((await params).id)(request);
}
