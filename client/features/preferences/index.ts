// The preferences feature's door: the preferences page and the preferences query others read.
export { preferencesQueryKey, usePreferences, useUpdatePreferencesMutation } from './api/preferences';
export { PreferencesPage } from './lazy-page';
