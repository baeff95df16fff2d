import "server-only";
import { correctField, reviewDocument } from "../correct-field";
import { decideFinding } from "../decide-finding";
import { getSet } from "../get-set";
import { readJsonBody, withMember } from "./respond";

/**
 * The checker's routes. Each answers with the whole set as it now stands, so
 * the page shows the recomputed comparison, findings and status at once.
 */

/** PUT /api/sets/{id}/files/{fileId}/fields {splitIndex, field, value}: value null puts the engine's value back. */
export function correctFieldRoute(setId: string, fileId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await correctField(db, { ...scope, fileId, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}

/** PUT /api/sets/{id}/files/{fileId}/reviews {splitIndex, reviewed} */
export function reviewDocumentRoute(setId: string, fileId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await reviewDocument(db, { ...scope, fileId, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}

/** POST /api/sets/{id}/decisions {findingKey, decision: accept | waive | reopen, note} */
export function decideFindingRoute(setId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await decideFinding(db, { ...scope, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}
