// What route plugins receive: the services and cookie helpers built once in buildApp.
import type { AppConfig } from '@server/kernel/config';
import type { SessionCookies } from '@server/http/plugins/session';
import type { AccountService } from '@server/domains/account/accounts';
import type { AdminService } from '@server/domains/admin/admin';
import type { BookmarkService } from '@server/domains/bookmarks/bookmarks';
import type { CaptchaService } from '@server/domains/account/captcha';
import type { ImageService } from '@server/domains/images';
import type { LibraryService } from '@server/domains/story/library';
import type { MyDataService } from '@server/domains/account/my-data';
import type { TurnService } from '@server/domains/story/turns';
import type { PreferencesService } from '@server/domains/preferences/preferences';
import type { QuotaService } from '@server/domains/limits/quotas';
import type { RequestLimiter } from '@server/domains/limits/request-limits';
import type { SessionService } from '@server/domains/account/sessions';
import type { SharingService } from '@server/domains/sharing/sharing';
import type { SpeechService } from '@server/domains/speech/speech';
import type { StoryService } from '@server/domains/story/reads';
import type { StoryFileService } from '@server/domains/story/files/story-files';
import type { StoryBible } from '@server/domains/story/bible';
import type { StoryCardService } from '@server/domains/story/cards/story-cards';
import type { StoryVersionService } from '@server/domains/story/versions';
import type { PublicBaseUrl } from './public-url';

export interface RouteContext {
  config: AppConfig;
  accounts: AccountService;
  sessions: SessionService;
  captcha: CaptchaService;
  /** Per-IP request limits (captcha, shared reads), counted in memory or Redis, not in the database. */
  limiter: RequestLimiter;
  sessionCookies: SessionCookies;
  turns: TurnService;
  stories: StoryService;
  storyVersions: StoryVersionService;
  library: LibraryService;
  storyFiles: StoryFileService;
  /** The story cards panel and the context records of replies. */
  storyCards: StoryCardService;
  /** The story bible in the memory panel. */
  storyBible: StoryBible;
  myData: MyDataService;
  admin: AdminService;
  bookmarks: BookmarkService;
  sharing: SharingService;
  preferences: PreferencesService;
  images: ImageService;
  speech: SpeechService;
  /** The trusted base of absolute URLs for this request (PUBLIC_URL, or a loopback or allowed host), else null. */
  publicBaseUrl: PublicBaseUrl;
  /** What one account may keep (stories, shares, stored text), and each quota's use. */
  quotas: QuotaService;
  /** Makes committed writes durable (PGlite WAL fsync) for handlers that write under a GET. */
  flush: () => Promise<void>;
}
