// Every user-facing string of the auth feature, so tests and UI agree.
// Validation messages come from shared/schemas/auth.ts (AUTH_MESSAGES) and are not repeated here.
import { PRODUCT_NAME } from '@shared/constants';

export const AUTH_STRINGS = {
  loginTitle: 'Welcome Back',
  registerTitle: 'Create Account',
  loginDescription: 'Log in to continue your stories.',
  registerDescription: `Join ${PRODUCT_NAME} and start weaving your own adventures.`,
  tokenPurchaseLogin: 'Sign in to continue your token purchase.',
  tokenPurchaseRegister: 'Create an account to continue your token purchase.',
  toRegister: "Don't have an account? Create one",
  toLogin: 'Already have an account? Login',

  usernameOrEmailLabel: 'Username or Email',
  usernameLabel: 'Username',
  emailLabel: 'Email',
  passwordLabel: 'Password',
  loginSubmit: 'Login',
  loginSubmitting: 'Logging in…',
  registerSubmit: 'Create Account',
  registerSubmitting: 'Creating account…',

  usernameChecking: 'Checking availability…',
  usernameAvailable: 'Username is available',
  usernameTaken: 'Username is already taken',

  captchaLabel: 'Security check',
  captchaLoading: 'Loading CAPTCHA…',
  captchaFailed: 'Could not load CAPTCHA',
  captchaReload: 'Load a new CAPTCHA question',
  captchaAnswerLabel: 'Your answer',

  loginSuccessTitle: 'Login Successful',
  loginSuccessText: 'Welcome back',
  loginSuccessAdminText: 'Welcome back (Admin)!',
  loginFailedTitle: 'Login Failed',
  loginFailedDefault: 'Login failed',
  /** The auth dialog's wording, where the page says 'Login Successful' / 'Login Failed'. */
  dialogLoginSuccessTitle: 'Login successful',
  dialogLoginSuccessText: 'Welcome back!',
  dialogLoginFailedTitle: 'Login failed',
  dialogRegisterFailedTitle: 'Registration failed',
  registerSuccessTitle: 'Registration Successful',
  /** One toast is visible at a time, so the spec's welcome toast is folded into the success toast. */
  registerSuccessText: (username: string) => `Your account has been created. Welcome to ${PRODUCT_NAME}, ${username}!`,
  registerFailedTitle: 'Registration Failed',
  registerFailedDefault: 'Registration failed',
  captchaErrorTitle: 'CAPTCHA Error',
  captchaErrorText: 'Failed to load CAPTCHA. Please try again.',

  logoutSuccessTitle: 'Logged Out',
  logoutSuccessText: 'You have been successfully logged out',
  logoutLocalText: 'You have been logged out locally',

  authCheckingTitle: 'Please wait',
  authCheckingText: 'Checking authentication status',
  checkingSession: 'Checking your session…',

  loginRequiredTitle: 'Login Required',
  loginRequiredText: 'Log in or create an account to start and continue stories.',
  loginRegister: 'Login / Register',
  returnHome: 'Return Home',

  dialogTitle: 'Sign in or Register',
  dialogDescription: 'Log in or create an account to continue.',
  dialogLoginTab: 'Login',
  dialogRegisterTab: 'Register',
} as const;
