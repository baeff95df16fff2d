import { z } from "zod";
import { throttlePasswordCheck } from "@/lib/auth/authenticate";
import { clientIpOf } from "@/lib/auth/client-ip";
import { readJsonBody, withMemberRoute } from "@/lib/auth/route-handler";
import { changePassword } from "@/lib/services/change-password";
import { parseInput } from "@/lib/services/validation";

const ChangePasswordBody = z.object({ currentPassword: z.string("currentPassword is required"), newPassword: z.string("newPassword is required") });

/**
 * POST /api/auth/password — the signed-in person changes their own password,
 * proving the current one (throttled like sign-in). 204; every session of
 * theirs ends, this one included, so they sign in again with the new one.
 */
export const POST = withMemberRoute(async (request, { db, session }) => {
  const body = parseInput(ChangePasswordBody, await readJsonBody(request));
  const retryAfter = await throttlePasswordCheck(db, { userId: session.userId, email: session.email, ip: clientIpOf(request.headers) });
  if (retryAfter !== null) {
    return Response.json({ detail: `Too many password attempts. Try again in ${retryAfter} seconds.` }, { status: 429, headers: { "retry-after": String(retryAfter) } });
  }
  await changePassword(db, { ...body, userId: session.userId, organizationId: session.organizationId });
  return new Response(null, { status: 204 });
});
