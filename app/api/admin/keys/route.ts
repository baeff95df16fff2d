import { z } from "zod";
import { readJsonBody, withAdminRoute } from "@/lib/auth/route-handler";
import { createApiKey, listApiKeys } from "@/lib/services";
import { API_KEY_NAME_MAX_LENGTH, parseInput } from "@/lib/services/validation";

const CreateKeyBody = z.object({
  kind: z.enum(["production", "sandbox"], "kind must be production or sandbox"),
  name: z
    .string("name must be text")
    .trim()
    .max(API_KEY_NAME_MAX_LENGTH, `name must have at most ${API_KEY_NAME_MAX_LENGTH} characters`)
    .optional()
    .transform((name) => name || undefined),
});

/** GET /api/admin/keys — the organization's keys: start, kind, dates and status, never the key. */
export const GET = withAdminRoute(async (_request, { db, session }) => {
  return Response.json({ keys: await listApiKeys(db, { organizationId: session.organizationId }) });
});

/** POST /api/admin/keys — issues a key; the plaintext is in this response and nowhere else, ever. */
export const POST = withAdminRoute(async (request, { db, session }) => {
  const body = parseInput(CreateKeyBody, await readJsonBody(request));
  const { key, record } = await createApiKey(db, {
    organizationId: session.organizationId,
    kind: body.kind,
    name: body.name,
    createdBy: session.userId,
  });
  const { id, name, kind, start, createdAt, expiresAt } = record;
  return Response.json({ key, record: { id, name, kind, start, createdAt, expiresAt } }, { status: 201 });
});
