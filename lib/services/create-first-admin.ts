import type { Db } from "@/db/client";
import { lockFirstRun } from "@/db/queries/users";
import { withSystemScope } from "@/db/scope";
import { discardSetupToken, isSetupToken } from "@/lib/auth/setup-token";
import { createUser, type CreatedUser } from "./create-user";
import { ApiError } from "@/lib/errors";
import { hasAnyUser } from "./has-any-user";

const SLUG_MAX_LENGTH = 63;
const FALLBACK_SLUG = "organization";

/**
 * First run: creates the organization and its first admin, only while the
 * database has no user at all and only for whoever holds the setup token
 * (see lib/auth/setup-token). The check and the insert share one
 * transaction behind an advisory lock, so two browsers racing through the
 * onboarding page cannot both become admin.
 */
export async function createFirstAdmin(
  db: Db,
  input: { organizationName: string; email: string; password: string; setupToken: string },
): Promise<CreatedUser> {
  if (!isSetupToken(input.setupToken)) {
    throw new ApiError("forbidden", "setupToken: enter the setup token that `npm start` printed (or the SETUP_TOKEN the operator set)");
  }
  const organizationName = input.organizationName.trim();
  if (!organizationName) throw new ApiError("invalid_input", "organizationName: enter your organization's name");
  // The system scope: the organization does not exist until this creates it.
  const created = await withSystemScope("first run", () =>
    db.transaction(async (tx) => {
      await lockFirstRun(tx);
      if (await hasAnyUser(tx)) {
        throw new ApiError("conflict", "This installation already has users: ask an administrator for an account.");
      }
      return createUser(tx, {
        email: input.email,
        password: input.password,
        orgSlug: slugOf(organizationName),
        orgName: organizationName,
        role: "admin",
        actor: "onboarding",
      });
    }),
  );
  discardSetupToken();
  return created;
}

/** "Acme Trade Finance Ltd." → "acme-trade-finance-ltd". */
function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug || FALLBACK_SLUG;
}
