import "server-only";
import type { Db } from "@/db/client";
import { findAnalysis } from "@/db/queries/analyses";
import { listSetFileProgress } from "@/db/queries/analysis-jobs";
import { listDocumentReviews, listFieldCorrections, listFindingDecisions, listSetAuditEvents } from "@/db/queries/set-review";
import { findDocumentSet } from "@/db/queries/sets";
import { listSplitCorrections } from "@/db/queries/sets-corrections";
import { listSetFilePages, listSetFiles } from "@/db/queries/sets-files";
import type { Page, SplitResult } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { minutesLeft } from "@/lib/jobs/job-progress";
import { applyFileReview, presentationStatusOf, toDecisionView } from "./apply-review";
import { SET_NOT_FOUND } from "./delete-set";
import { examineSet } from "./examine-set";
import { toFileView } from "./file-view";
import type { SetView } from "./types";

/** The set page shows this many of the set's newest audit events. */
const SET_HISTORY_LIMIT = 100;

/** Today in UTC as YYYY-MM-DD: the presentation date of a set that names none. */
function todayIsoDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A set with its files, the splits in force with the checker's corrected
 * values and, once no file is still being analysed, the examination of the
 * whole set at its presentation date, computed from the corrected values,
 * with the decisions on its findings and the status they give.
 */
export async function getSet(
  db: Db,
  params: { organizationId: string; setId: string; today?: string },
): Promise<SetView> {
  const set = await findDocumentSet(db, params);
  if (!set) throw new ApiError("not_found", SET_NOT_FOUND);
  const scope = { organizationId: params.organizationId };
  const rows = await listSetFiles(db, { ...scope, setId: set.id });
  const done = rows.filter((r) => r.status === "done");
  const fileIds = done.map((r) => r.id);
  const reading = rows.filter((r) => r.status === "analyzing").map((r) => r.id);
  const [pageRows, corrections, fieldCorrections, reviews, decisionRows, events, results, progress] = await Promise.all([
    listSetFilePages(db, { ...scope, fileIds }),
    listSplitCorrections(db, { ...scope, fileIds }),
    listFieldCorrections(db, { ...scope, fileIds }),
    listDocumentReviews(db, { ...scope, fileIds }),
    listFindingDecisions(db, { ...scope, setId: set.id }),
    listSetAuditEvents(db, { ...scope, setId: set.id, limit: SET_HISTORY_LIMIT }),
    Promise.all(done.map((r) => (r.analysisId ? findAnalysis(db, { ...scope, analysisId: r.analysisId }) : undefined))),
    listSetFileProgress(db, { ...scope, fileIds: reading }),
  ]);
  const progressByFile = new Map(progress.map((p) => [p.setFileId, { pagesDone: p.pagesDone, pagesTotal: p.pagesTotal, minutesLeft: minutesLeft(p.estimatedEndAt) }]));
  const pagesByFile = new Map(pageRows.map((r) => [r.id, (r.pages ?? []) as Page[]]));
  const resultByFile = new Map(done.map((r, i) => [r.id, (results[i]?.result ?? null) as SplitResult[] | null]));
  const files = rows.map((row) => ({
    ...applyFileReview(
      toFileView(row, {
        pages: pagesByFile.get(row.id) ?? null,
        analysisResult: resultByFile.get(row.id) ?? null,
        corrections: corrections.filter((c) => c.setFileId === row.id),
      }),
      fieldCorrections.filter((c) => c.setFileId === row.id),
      reviews.filter((r) => r.setFileId === row.id),
    ),
    progress: progressByFile.get(row.id) ?? null,
  }));
  const settled = rows.every((r) => r.status === "done" || r.status === "failed");
  const presentationDate = set.presentationDate ?? params.today ?? todayIsoDate();
  const decisions = decisionRows.map(toDecisionView);
  const { examination, error } = settled ? examineSet(files, pagesByFile, presentationDate, decisions) : { examination: null, error: null };
  return {
    set: { id: set.id, name: set.name, presentationDate: set.presentationDate, createdAt: set.createdAt.toISOString() },
    files,
    settled,
    examination,
    examinationError: error,
    status: presentationStatusOf(examination?.findings ?? null),
    decisions,
    history: events.map((e) => ({ action: e.action, actor: e.actorEmail ?? e.actor, at: e.createdAt.toISOString(), detail: e.detail })),
  };
}
