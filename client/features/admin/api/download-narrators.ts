// GET /api/admin/api-usage/download: the usage by narrator as a CSV file, opened as the users CSV
// is: the browser sends the session cookie with the navigation, Content-Disposition makes it a file.
export const ADMIN_NARRATORS_DOWNLOAD_PATH = '/api/admin/api-usage/download';

export function openNarratorsDownload(open: typeof window.open = window.open.bind(window)): void {
  open(ADMIN_NARRATORS_DOWNLOAD_PATH, '_blank', 'noopener');
}
