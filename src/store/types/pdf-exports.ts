export type PdfExportStatus = 'running' | 'succeeded' | 'failed';

/** What one PDF export prints: a revision of a space (or of a change request), whole or from one page. */
export interface PdfExportScope {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  revisionId: string;
  /** The page printed (with its sub-pages unless `only`); null: the whole revision. */
  pageId: string | null;
  only: boolean;
}

export interface PdfExportRecord extends PdfExportScope {
  id: string;
  /** 1 for the first run; a failed export asked for again runs as the next attempt. */
  attempt: number;
  status: PdfExportStatus;
  blobHash: string | null;
  /** Content pages printed, and the pages of the PDF. */
  pages: number | null;
  pdfPages: number | null;
  bytes: number | null;
  /** What the operator should know (links that lead outside the export, blocks printed as fallbacks, …); at most 50. */
  warnings: string[];
  error: { code: string; message: string } | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface PdfExportStore {
  /**
   * The export of `scope` (one per revision, page and `only`): a new one (`started`), the running or finished one
   * as it is, or a failed one begun again as its next attempt (`started`).
   */
  ensure(scope: PdfExportScope): Promise<{ record: PdfExportRecord; started: boolean }>;
  /** The export `id` of the organization, or null (another organization's exports are absent). */
  get(organizationId: string, id: string): Promise<PdfExportRecord | null>;
  /** Records the printed PDF of attempt `attempt` (ignored when the export has moved on). */
  succeed(
    id: string,
    attempt: number,
    result: { blobHash: string; pages: number; pdfPages: number; bytes: number; warnings: string[] },
  ): Promise<PdfExportRecord | null>;
  /** Records the failure of attempt `attempt` (ignored when the export has moved on). */
  fail(id: string, attempt: number, error: { code: string; message: string }): Promise<PdfExportRecord | null>;
  /** A temporary download URL's secret (its SHA-256) for the export. */
  createLink(exportId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /** The export a download URL's secret leads to, with the URL's expiry, or null. */
  byLink(tokenHash: string): Promise<{ record: PdfExportRecord; expiresAt: Date } | null>;
}
