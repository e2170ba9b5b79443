// GET /api/admin/users/download: the users as a CSV file. The spec opens it in a new window; the
// browser sends the session cookie with that navigation, and the server's Content-Disposition
// makes it a download. 'noopener' keeps the new window from reaching back into the dashboard.
export const ADMIN_USERS_DOWNLOAD_PATH = '/api/admin/users/download';

export function openUsersDownload(open: typeof window.open = window.open.bind(window)): void {
  open(ADMIN_USERS_DOWNLOAD_PATH, '_blank', 'noopener');
}
