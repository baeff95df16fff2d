/**
 * The actor recorded for commands run on the server itself (`npm run users`).
 * Whoever can run them already holds the database: the services skip the
 * admin check for this actor, and no user id can take this value (ids are
 * generated with a `usr_` prefix; routes always pass the session's user id).
 */
export const OPERATOR = "operator";
