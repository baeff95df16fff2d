import type { Db } from "@/db/client";
import { anyUserExists } from "@/db/queries/users";

/** Whether anyone can sign in yet: the first-run page exists only while this is false. */
export function hasAnyUser(db: Db): Promise<boolean> {
  return anyUserExists(db);
}
