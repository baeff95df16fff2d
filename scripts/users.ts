/**
 * Operator CLI for users.
 *   npm run users -- create --email E --password P --org ORG --role admin|member
 * Creates the organization when ORG is new, then the user and their membership.
 */
import { parseArgs } from "node:util";
import { getDb } from "@/db/client";
import type { MembershipRole } from "@/db/schema";
import { createUser } from "@/lib/services";
import { runCli, UsageError } from "./run-cli";

const USAGE = "usage:\n  users create --email EMAIL --password PASSWORD --org ORG --role admin|member";

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

runCli(main, USAGE);
