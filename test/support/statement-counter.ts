/**
 * Counts the statements a database handle sends while `counted` runs: give
 * `onQuery` to the handle when it is opened (database.open or openDb).
 */
export function statementCounter() {
  let statements = 0;
  let counting = false;
  return {
    onQuery: () => void (counting && statements++),
    async counted<T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> {
      statements = 0;
      counting = true;
      try {
        return { value: await run(), statements };
      } finally {
        counting = false;
      }
    },
  };
}
