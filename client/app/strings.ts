// User-facing strings of the app chrome (navigation, theme, settings, 404, errors), in one place.
import { PRODUCT_NAME } from '@shared/constants';

export const APP_STRINGS = {
  productName: PRODUCT_NAME,
  skipToContent: 'Skip to content',
  mainNavigation: 'Main',
  home: 'Home',
  currentStory: 'Current Story',
  yourStories: 'Your Stories',
  bookmarks: 'Bookmarks',
  themeToggle: 'Toggle theme',
  themeHeading: 'Theme',
  themeLight: 'Light',
  themeDark: 'Dark',
  themeSystem: 'System',
  settings: 'Settings',
  storyPreferences: 'Story Preferences',
  accountSettings: 'Account Settings',
  privacyPolicy: 'Privacy Policy',
  termsOfService: 'Terms of Service',
  loginRegister: 'Login / Register',
  logout: 'Logout',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
  menuTitle: 'Menu',
  menuDescription: `Navigate ${PRODUCT_NAME}`,
  signedInAs: (username: string) => `Signed in as ${username}`,
  loadingPage: 'Loading page…',

  notFoundTitle: 'Page Not Found',
  notFoundText: "The page you're looking for doesn't exist.",

  errorTitle: 'Something went wrong',
  errorText: 'This page could not be shown. Reloading usually fixes it, for example after an update.',
  reload: 'Reload Page',

  errorToastTitle: 'Error',
  footerNote: `${PRODUCT_NAME}: stories woven with an AI narrator.`,
} as const;
