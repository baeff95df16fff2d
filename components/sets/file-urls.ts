/** Where the browser fetches a stored file and the pages drawn from its text (the set routes). */
export function contentUrl(setId: string, fileId: string): string {
  return `/api/sets/${encodeURIComponent(setId)}/files/${encodeURIComponent(fileId)}/content`;
}

/** A page drawn from the text the engine read, for files the browser cannot draw (Word, e-mail, TIFF). */
export function pageSheetUrl(setId: string, fileId: string, page: number): string {
  return `/api/sets/${encodeURIComponent(setId)}/files/${encodeURIComponent(fileId)}/pages/${page}`;
}
