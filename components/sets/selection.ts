/** What the documents view shows on its right: a split of a file, and perhaps a page and a field. */
export interface Selection {
  fileId: string;
  splitIndex: number;
  /** The page to show (a finding's page, or a clicked thumbnail). */
  page?: number;
  /** The field whose evidence is highlighted. */
  field?: string;
}
