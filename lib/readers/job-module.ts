import type { IsolatedJob } from "./pool";

/**
 * A module that readers import by path, typed by its exports. The path stays
 * a string because the child imports the source file itself (the parent may
 * be Next's bundled server, which has no source files to hand over); the type
 * is what the compiler checks: a renamed or moved module breaks the
 * `typeof import(...)` beside its path, a renamed export or changed arguments
 * break every jobOf naming it.
 */
export interface JobModule<Exports> {
  /** Absolute path of the .ts source the child imports. */
  readonly path: string;
  /** Never set: carries the module's type to jobOf. */
  readonly exports?: Exports;
}

type Job = (...args: never[]) => unknown;

/** A job of `module`: its export `exportName` called with `args`, checked against the module's own signature. */
export function jobOf<Exports, Name extends { [K in keyof Exports]: Exports[K] extends Job ? K : never }[keyof Exports] & string>(
  module: JobModule<Exports>,
  exportName: Name,
  ...args: Exports[Name] extends (...params: infer Params) => unknown ? Params : never
): IsolatedJob<Exports[Name] extends (...params: never[]) => infer Result ? Awaited<Result> : never> {
  return { module: module.path, exportName, args };
}
