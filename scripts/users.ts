/**
 * Operator CLI for users.
 *   npm run users -- create --email E --password P --org ORG --role admin|member
 * Creates the organization when ORG is new, then the user and their membership.
 */
import { parseArgs } from "node:util";
import { closeDb, getDb } from "@/db/client";
import type { MembershipRole } from "@/db/schema";
import { createUser, ServiceError } from "@/lib/services";

const USAGE = "usage:\n  users create --email EMAIL --password PASSWORD --org ORG --role admin|member";

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      org: { type: "string" },
      role: { type: "string" },
    },
  });
  if (positionals.length !== 1 || positionals[0] !== "create") {
    throw new UsageError(positionals.length ? `unknown command: ${positionals.join(" ")}` : "missing command");
  }
  const { email, password, org, role } = values;
  if (!email || !password || !org || !role) throw new UsageError("--email, --password, --org and --role are required");
  if (role !== "admin" && role !== "member") throw new UsageError("--role must be admin or member");
  const membershipRole: MembershipRole = role;

  const created = await createUser(await getDb(), { email, password, orgSlug: org, role: membershipRole });
  if (created.organizationCreated) console.log(`Created organization ${created.organization.slug} (${created.organization.id})`);
  console.log(`Created user ${created.user.email} (${created.user.id}) as ${created.role} of ${created.organization.slug}`);
}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    process.exitCode = 1;
    if (error instanceof UsageError) console.error(`error: ${error.message}\n${USAGE}`);
    else if (error instanceof ServiceError) console.error(`error: ${error.message}`);
    else if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      console.error(`error: ${error.message}\n${USAGE}`);
    } else console.error(error);
  })
  .finally(() => closeDb());
