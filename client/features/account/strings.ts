// Every user-facing string of the account feature (spec sections 2 and 8), so tests and UI agree.
// Validation messages come from shared/schemas/auth.ts (AUTH_MESSAGES).
import { PRODUCT_NAME } from '@shared/constants';

export const ACCOUNT_STRINGS = {
  pageTitle: 'Account Settings',
  pageDescription: 'Manage how you sign in and how we can reach you.',
  loggedOutText: 'Please log in to access settings',
  loginButton: 'Login / Register',
  signedInAs: 'Signed in as',
  memberSince: 'Member since',
  checkingSession: 'Checking your session…',

  usernameSection: 'Change Username',
  usernameSectionText: `Your username is how you log in and how ${PRODUCT_NAME} greets you.`,
  newUsernameLabel: 'New username',
  usernameSubmit: 'Update Username',
  usernameSuccessTitle: 'Username Updated',
  usernameSuccessText: 'Your username has been successfully updated',
  usernameFailedTitle: 'Username Update Failed',
  usernameFailedDefault: 'Failed to update username',

  passwordSection: 'Change Password',
  passwordSectionText: 'Choose a new password of at least 8 characters.',
  currentPasswordLabel: 'Current password',
  newPasswordLabel: 'New password',
  confirmPasswordLabel: 'Confirm new password',
  passwordSubmit: 'Update Password',
  passwordSuccessTitle: 'Password updated successfully',
  passwordFailedTitle: 'Password Update Failed',
  passwordFailedDefault: 'Failed to update password',

  emailSection: 'Email Address',
  emailSectionText: 'We use it only for matters concerning your account.',
  currentEmailLabel: 'Current email',
  noEmail: 'No email on file',
  newEmailLabel: 'New email',
  emailSubmit: 'Update Email',
  emailSuccessTitle: 'Email Updated',
  emailSuccessText: 'Your email has been successfully updated',
  emailFailedTitle: 'Email Update Failed',
  emailFailedDefault: 'Failed to update email',

  saving: 'Saving…',

  emailRequiredTitle: 'Email Required',
  emailRequiredText: `Please add an email address to your account to keep using ${PRODUCT_NAME}. We use it only for account matters.`,
  emailRequiredLabel: 'Email',
  emailRequiredSubmit: 'Save Email',
  emailAddedTitle: 'Email updated',
  emailAddedText: 'Your email has been added to your account.',
  emailAddFailedTitle: 'Failed to update email',
} as const;
