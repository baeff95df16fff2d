/** Types of listen-host.mjs (plain JavaScript, so that `npm start` runs without a compiler). */
export function listenHostFor(origin: string | undefined, hostname: string | undefined): string | undefined;
