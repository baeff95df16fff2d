import "server-only";

/**
 * Caps the password verifications that run at once. argon2 runs on libuv's
 * threadpool (four threads by default), which DNS look-ups and file reads
 * share: a flood of sign-ins must not starve them. Attempts beyond the cap
 * wait in a bounded queue; beyond the queue they are refused at once, which
 * the sign-in answers as throttled (retry in a second).
 */
export interface Gate {
  /** Runs `work` when a slot is free; undefined, without running it, when the queue is full. */
  run<T>(work: () => Promise<T>): Promise<{ value: T } | undefined>;
}

export function createGate(concurrency: number, queueLimit: number): Gate {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run(work) {
      if (running >= concurrency) {
        if (waiting.length >= queueLimit) return undefined;
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return { value: await work() };
      } finally {
        // The slot passes straight to the next in line, so `running` never exceeds the cap.
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

/** Two of libuv's four threads: the other two stay free for DNS and the file system. */
export const SIGN_IN_CONCURRENCY = 2;
/** About a second of waiting at ~50 ms per verification on two threads. */
export const SIGN_IN_QUEUE_LIMIT = 32;

const GATE = Symbol.for("shipshape.sign-in-gate");

/** The process-wide gate every sign-in passes. */
export function signInGate(): Gate {
  const registry = globalThis as { [GATE]?: Gate };
  registry[GATE] ??= createGate(SIGN_IN_CONCURRENCY, SIGN_IN_QUEUE_LIMIT);
  return registry[GATE];
}
