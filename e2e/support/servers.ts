/** Where the e2e servers listen (see playwright.config.ts and start-server.ts). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The main server: production build, seeded admin and member. */
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** A second server on the same build whose database has no users yet: the first-run page. */
export const FIRST_RUN_PORT = E2E_PORT + 1;
export const FIRST_RUN_URL = `http://127.0.0.1:${FIRST_RUN_PORT}`;
/** The first-run server's SETUP_TOKEN: /onboarding asks for it. */
export const FIRST_RUN_SETUP_TOKEN = "e2e-first-run-setup-token-0123456789";
