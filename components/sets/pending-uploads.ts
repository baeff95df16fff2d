/**
 * Files chosen on the "new set" page, handed to the set page it navigates to
 * (client-side navigation keeps this module alive), so uploads show their
 * progress where their analysis will then appear.
 */
const pending = new Map<string, File[]>();

export function stashUploads(setId: string, files: File[]): void {
  if (files.length > 0) pending.set(setId, files);
}

/** The stashed files of a set, once: a second call gets none. */
export function takeUploads(setId: string): File[] {
  const files = pending.get(setId) ?? [];
  pending.delete(setId);
  return files;
}
