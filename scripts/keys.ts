/**
 * Operator CLI for API keys (keys are issued by the operator; the spec has no self-service).
 *   npm run keys -- create --org ORG --kind production|sandbox [--name LABEL]
 *   npm run keys -- list --org ORG
 *   npm run keys -- revoke KEY_ID
 * `create` prints the key alone on the last line of stdout, so scripts can take it with `tail -1`.
 */
import { parseArgs } from "node:util";
import { getDb, type Db } from "@/db/client";
import { withSystemScope } from "@/db/scope";
import { findApiKeyOrganizationId } from "@/db/queries/api-keys";
import type { ApiKeyKind } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { createApiKey, findOrganizationBySlug, listApiKeys, revokeApiKey, OPERATOR } from "@/lib/services";
import { runCli, UsageError } from "./run-cli";

const USAGE = `usage:
  keys create --org ORG --kind production|sandbox [--name LABEL]
  keys list --org ORG
  keys revoke KEY_ID`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { org: { type: "string" }, kind: { type: "string" }, name: { type: "string" } },
  });
  const [command, ...rest] = positionals;
  if (command === "create" && rest.length === 0) return create(values);
  if (command === "list" && rest.length === 0) return list(values.org);
  if (command === "revoke" && rest.length === 1) return revoke(rest[0]!);
  throw new UsageError(command ? `unknown or incomplete command: ${positionals.join(" ")}` : "missing command");
}

async function create(options: { org?: string; kind?: string; name?: string }): Promise<void> {
  if (options.kind !== "production" && options.kind !== "sandbox") {
    throw new UsageError("--kind must be production or sandbox");
  }
  const kind: ApiKeyKind = options.kind;
  const db = await getDb();
  const organization = await requireOrganization(db, options.org);
  const { key, record } = await createApiKey(db, { createdBy: OPERATOR, organizationId: organization.id, kind, name: options.name });
  console.log(`Created ${record.kind} key ${record.id} for ${organization.slug}${record.name ? ` (${record.name})` : ""}`);
  console.log(`Expires: ${record.expiresAt ? record.expiresAt.toISOString() : "never"}`);
  console.log("Store this key now; it cannot be shown again:");
  console.log(key);
}

async function list(org: string | undefined): Promise<void> {
  const db = await getDb();
  const organization = await requireOrganization(db, org);
  const keys = await listApiKeys(db, { organizationId: organization.id });
  if (keys.length === 0) {
    console.log(`${organization.slug} has no API keys`);
    return;
  }
  console.table(
    keys.map((key) => ({
      id: key.id,
      kind: key.kind,
      name: key.name ?? "",
      start: key.start,
      status: key.status,
      created: key.createdAt.toISOString(),
      expires: key.expiresAt?.toISOString() ?? "never",
      "last used": key.lastUsedAt?.toISOString() ?? "never",
    })),
  );
}

async function revoke(keyId: string): Promise<void> {
  const db = await getDb();
  // The operator acts across organizations, so the key's own organization scopes the revocation.
  const organizationId = await findApiKeyOrganizationId(db, keyId);
  if (!organizationId || !(await revokeApiKey(db, { revokedBy: OPERATOR, organizationId, keyId }))) {
    throw new ApiError("not_found", `no active API key with id ${keyId}`);
  }
  console.log(`Revoked ${keyId}; it is refused from its next request.`);
}

async function requireOrganization(db: Db, slug: string | undefined) {
  if (!slug) throw new UsageError("--org is required");
  const organization = await findOrganizationBySlug(db, slug);
  if (!organization) {
    throw new ApiError("not_found", `organization ${slug} not found (create it with: npm run users -- create --org ${slug} ...)`);
  }
  return organization;
}

// The operator acts on any organization: the system scope, named so (db/scope.ts).
runCli((argv) => withSystemScope("operator", () => main(argv)), USAGE);
