// User-facing strings of the admin page's gating (spec section 6).
export const ADMIN_STRINGS = {
  pageTitle: 'Admin Dashboard',
  loading: 'Checking your access…',
  loggedOutText: 'Please log in to access the admin panel.',
  loginButton: 'Login / Register',
  accessDeniedTitle: 'Access Denied',
  accessDeniedText: "You don't have permission to access the admin panel. Admin privileges are required.",
  backToLogin: 'Back to Login',
} as const;
