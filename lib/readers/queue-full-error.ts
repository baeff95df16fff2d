/**
 * Every reader was busy and the pool's queue was full: the job was not started.
 * The API answers 503 with Retry-After; its own file so that the error table
 * can know it without loading the pool.
 */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Every document reader is busy and the queue is full; retry after ${retryAfterSeconds} s.`);
    this.name = "QueueFullError";
  }
}
