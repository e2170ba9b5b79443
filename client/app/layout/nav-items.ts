// The links of the top bar and the settings menu, shared by the desktop bar and the mobile sheet.
import {
  BookMarked,
  BookOpen,
  Library,
  FileText,
  House,
  Shield,
  SlidersHorizontal,
  UserCog,
  type LucideIcon,
} from 'lucide-react';
import { APP_STRINGS } from '../strings';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Story pages need to know who is logged in; while that loads the click waits. */
  needsAuthState?: boolean;
  loggedInOnly?: boolean;
  /** Settings menus draw a separator between the story/account group and the legal pages. */
  group?: 'settings' | 'legal';
}

export const MAIN_NAV_ITEMS: NavItem[] = [
  { to: '/', label: APP_STRINGS.home, icon: House },
  { to: '/story', label: APP_STRINGS.currentStory, icon: BookOpen, needsAuthState: true },
  { to: '/stories', label: APP_STRINGS.yourStories, icon: Library },
  { to: '/bookmarks', label: APP_STRINGS.bookmarks, icon: BookMarked },
];

export const SETTINGS_NAV_ITEMS: NavItem[] = [
  { to: '/preferences', label: APP_STRINGS.storyPreferences, icon: SlidersHorizontal, group: 'settings' },
  { to: '/account', label: APP_STRINGS.accountSettings, icon: UserCog, loggedInOnly: true, group: 'settings' },
  { to: '/privacy', label: APP_STRINGS.privacyPolicy, icon: Shield, group: 'legal' },
  { to: '/terms', label: APP_STRINGS.termsOfService, icon: FileText, group: 'legal' },
];

export function visibleSettingsItems(isLoggedIn: boolean): NavItem[] {
  return SETTINGS_NAV_ITEMS.filter((item) => !item.loggedInOnly || isLoggedIn);
}
