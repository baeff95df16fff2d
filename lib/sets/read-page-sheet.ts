import "server-only";
import type { Db } from "@/db/client";
import { findSetFile } from "@/db/queries/sets-files";
import type { Page } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { renderPageSheet } from "./page-sheet";

/** One page of a stored file drawn from the text the engine read (see page-sheet.ts), scoped to the caller's organization. */
export async function readPageSheet(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string; page: string },
): Promise<string> {
  const number = /^[1-9]\d{0,5}$/.test(params.page) ? Number(params.page) : undefined;
  if (number === undefined) throw new ApiError("invalid_input", "The page must be a page number from 1.");
  const file = await findSetFile(db, params);
  if (!file) throw new ApiError("not_found", "No such file in this set.");
  const pages = file.pages as Page[] | null;
  if (!pages) throw new ApiError("conflict", "The file has not been read yet; its pages appear once its analysis is done.");
  const page = pages.find((p) => p.number === number);
  if (!page) throw new ApiError("not_found", `The file has no page ${number}.`);
  return renderPageSheet(page);
}
