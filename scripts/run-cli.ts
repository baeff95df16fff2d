import { closeDb } from "@/db/client";
import { ApiError } from "@/lib/errors";

/** A mistake in the command line: printed with the usage text. */
export class UsageError extends Error {}

/** Runs an operator command: clear one-line errors, usage on argument mistakes, exit code 1, database closed. */
export function runCli(main: (argv: string[]) => Promise<void>, usage: string): void {
  main(process.argv.slice(2))
    .catch((error: unknown) => {
      process.exitCode = 1;
      if (error instanceof UsageError) console.error(`error: ${error.message}\n${usage}`);
      else if (error instanceof ApiError) console.error(`error: ${error.message}`);
      else if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
        console.error(`error: ${error.message}\n${usage}`);
      } else console.error(error);
    })
    .finally(() => closeDb());
}
