/**
 * Operator CLI for users. Every command is audited with the actor "operator".
 *   npm run users -- create --email E --password P --org ORG --role admin|member
 *   npm run users -- remove --email E --org ORG            (takes them out of ORG)
 *   npm run users -- disable|enable --email E --org ORG    (their membership of ORG)
 *   npm run users -- revoke-sessions --email E --org ORG   (ends every session they have)
 *   npm run users -- reset-password --email E --org ORG    (prints a temporary password on the last line)
 * Each takes effect on the person's next request.
 */
import { parseArgs } from "node:util";
import { getDb, type Db } from "@/db/client";
import { withSystemScope } from "@/db/scope";
import { findUserByEmail } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { createUser, findOrganizationBySlug } from "@/lib/services";
import { OPERATOR } from "@/lib/services/operator";
import { removeMember } from "@/lib/services/remove-member";
import { resetMemberPassword } from "@/lib/services/reset-member-password";
import { revokeUserSessions } from "@/lib/services/revoke-user-sessions";
import { setMemberDisabled } from "@/lib/services/set-member-disabled";
import { runCli, UsageError } from "./run-cli";

const USAGE = [
  "usage:",
  "  users create --email EMAIL --password PASSWORD --org ORG --role admin|member",
  "  users remove --email EMAIL --org ORG",
  "  users disable --email EMAIL --org ORG",
  "  users enable --email EMAIL --org ORG",
  "  users revoke-sessions --email EMAIL --org ORG",
  "  users reset-password --email EMAIL --org ORG",
].join("\n");

type Values = { email?: string; password?: string; org?: string; role?: string };

/** The commands that act on an existing member of an organization. */
const MEMBER_COMMANDS: Record<string, (db: Db, member: { organizationId: string; userId: string; email: string; org: string }) => Promise<string>> = {
  remove: async (db, m) => {
    await removeMember(db, { organizationId: m.organizationId, userId: m.userId, removedBy: OPERATOR });
    return `Removed ${m.email} from ${m.org}`;
  },
  disable: async (db, m) => {
    const result = await setMemberDisabled(db, { organizationId: m.organizationId, userId: m.userId, disabled: true, changedBy: OPERATOR });
    return result.changed ? `Disabled ${m.email} in ${m.org}` : `${m.email} was already disabled in ${m.org}`;
  },
  enable: async (db, m) => {
    const result = await setMemberDisabled(db, { organizationId: m.organizationId, userId: m.userId, disabled: false, changedBy: OPERATOR });
    return result.changed ? `Enabled ${m.email} in ${m.org}` : `${m.email} was already enabled in ${m.org}`;
  },
  "revoke-sessions": async (db, m) => {
    await revokeUserSessions(db, { organizationId: m.organizationId, userId: m.userId, revokedBy: OPERATOR });
    return `Ended every session of ${m.email}`;
  },
  "reset-password": async (db, m) => {
    const { temporaryPassword } = await resetMemberPassword(db, { organizationId: m.organizationId, userId: m.userId, resetBy: OPERATOR });
    return `Reset the password of ${m.email}: they choose a new one when they sign in with this temporary password\n${temporaryPassword}`;
  },
};

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, password: { type: "string" }, org: { type: "string" }, role: { type: "string" } },
  });
  const [command, ...rest] = positionals;
  if (!command || rest.length) throw new UsageError(command ? `unknown command: ${positionals.join(" ")}` : "missing command");
  if (command === "create") return create(values);
  const act = MEMBER_COMMANDS[command];
  if (!act) throw new UsageError(`unknown command: ${command}`);
  const { email, org } = values;
  if (!email || !org) throw new UsageError("--email and --org are required");
  const db = await getDb();
  const organization = await findOrganizationBySlug(db, org);
  if (!organization) throw new ApiError("not_found", `no organization ${org}`);
  const user = await findUserByEmail(db, email.trim().toLowerCase());
  if (!user) throw new ApiError("not_found", `no user ${email}`);
  console.log(await act(db, { organizationId: organization.id, userId: user.id, email: user.email, org: organization.slug }));
}

async function create({ email, password, org, role }: Values): Promise<void> {
  if (!email || !password || !org || !role) throw new UsageError("--email, --password, --org and --role are required");
  if (role !== "admin" && role !== "member") throw new UsageError("--role must be admin or member");
  const created = await createUser(await getDb(), { actor: OPERATOR, email, password, orgSlug: org, role });
  if (created.organizationCreated) console.log(`Created organization ${created.organization.slug} (${created.organization.id})`);
  console.log(`Created user ${created.user.email} (${created.user.id}) as ${created.role} of ${created.organization.slug}`);
}

// The operator acts on any organization: the system scope, named so (db/scope.ts).
runCli((argv) => withSystemScope("operator", () => main(argv)), USAGE);
