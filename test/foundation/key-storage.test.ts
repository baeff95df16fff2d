import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { queryRows } from "@/db/queries/rows";
import { verifyApiKey } from "@/lib/keys";
import { createApiKey, revokeApiKey, OPERATOR } from "@/lib/services";
import { constraintOf, seedOrganization, testDatabases } from "@/test/support/databases";

/** Every table the application can read, in every schema it owns (drizzle's journal included). */
async function listTables(db: Db): Promise<{ schema: string; table: string }[]> {
  return queryRows(
    db,
    sql`SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
}

describe.each(testDatabases())("stored API keys on $name (checklist #25)", (database) => {
  let db: Db;
  const issued: { key: string; id: string }[] = [];
  beforeAll(async () => {
    db = await database.open();
    const org = await seedOrganization(db, { prefix: "storage" });
    const organizationId = org.organization.id;
    for (const kind of ["production", "sandbox"] as const) {
      const { key, record } = await createApiKey(db, { organizationId, kind, name: `${kind} key`, createdBy: org.user.id });
      issued.push({ key, id: record.id });
      await verifyApiKey(db, key);
    }
    // Revoke one and present it again, so audit rows for revocation and failed auth exist too.
    await revokeApiKey(db, { revokedBy: OPERATOR, organizationId, keyId: issued[0]!.id });
    await verifyApiKey(db, issued[0]!.key);
  });
  afterAll(() => database.close(db));

  it("holds no plaintext key, nor its secret part, in any row of any table", async () => {
    const tables = await listTables(db);
    expect(tables.map((t) => t.table)).toEqual(expect.arrayContaining(["api_keys", "audit_events", "analyses", "users"]));
    let rowsSeen = 0;
    for (const { schema, table } of tables) {
      const rows = await queryRows<{ row: string }>(
        db,
        sql`SELECT row_to_json(t)::text AS row FROM ${sql.identifier(schema)}.${sql.identifier(table)} t`,
      );
      rowsSeen += rows.length;
      for (const { row } of rows) {
        for (const { key } of issued) {
          expect(row, `${schema}.${table}`).not.toContain(key);
          expect(row, `${schema}.${table}`).not.toContain(key.slice(8, 40));
        }
      }
    }
    expect(rowsSeen).toBeGreaterThan(0);
  });

  it("stores each key as a 64-hex SHA-256 digest", async () => {
    const ids = issued.map((entry) => entry.id);
    const rows = await queryRows<{ id: string; digest: string }>(
      db,
      sql`SELECT id, digest FROM api_keys WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
    );
    expect(rows).toHaveLength(issued.length);
    for (const row of rows) expect(row.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses at the database a digest that is not 64 hex characters", async () => {
    const id = issued[0]?.id ?? "";
    const update = db.execute(sql`UPDATE api_keys SET digest = ${"Z".repeat(64)} WHERE id = ${id}`);
    expect(await constraintOf(update)).toBe("api_keys_digest_hex");
  });
});
