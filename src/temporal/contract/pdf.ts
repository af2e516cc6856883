/**
 * `space/<spaceId>/pdf/<exportId>/<attempt>`: one PDF export (of a space's or a change request's revision) printed
 * by the worker's Chromium. The PDF is a blob recorded on the export row; only ids travel through Temporal.
 */
export interface PdfExportInput {
  organizationId: string;
  spaceId: string;
  exportId: string;
  attempt: number;
}

export interface PdfExportResult {
  exportId: string;
  status: 'succeeded' | 'failed' | 'running';
  /** Content pages printed and sheets of the PDF (null when not printed by this run). */
  pages: number | null;
  pdfPages: number | null;
  warningCount: number;
}

export function pdfExportWorkflowId(spaceId: string, exportId: string, attempt: number): string {
  return `space/${spaceId}/pdf/${exportId}/${attempt}`;
}
