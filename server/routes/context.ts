// What route plugins receive: the services and cookie helpers built once in buildApp.
import type { AppConfig } from '@server/config';
import type { SessionCookies } from '@server/plugins/session';
import type { AccountService } from '@server/services/accounts';
import type { AdminService } from '@server/services/admin';
import type { BookmarkService } from '@server/services/bookmarks';
import type { CaptchaService } from '@server/services/captcha';
import type { ImageService } from '@server/services/images';
import type { LibraryService } from '@server/services/library';
import type { MyDataService } from '@server/services/my-data';
import type { NarrationService } from '@server/services/narration';
import type { PreferencesService } from '@server/services/preferences';
import type { QuotaService } from '@server/services/quotas';
import type { RequestLimiter } from '@server/services/request-limiter';
import type { SessionService } from '@server/services/sessions';
import type { SharingService } from '@server/services/sharing';
import type { SpeechService } from '@server/services/speech';
import type { StoryService } from '@server/services/stories';
import type { StoryFileService } from '@server/services/story-files';
import type { StoryVersionService } from '@server/services/story-versions';
import type { PublicBaseUrl } from './public-url';

export interface RouteContext {
  config: AppConfig;
  accounts: AccountService;
  sessions: SessionService;
  captcha: CaptchaService;
  /** Per-IP request limits (captcha, shared reads), counted in memory or Redis, not in the database. */
  limiter: RequestLimiter;
  sessionCookies: SessionCookies;
  narration: NarrationService;
  stories: StoryService;
  storyVersions: StoryVersionService;
  library: LibraryService;
  storyFiles: StoryFileService;
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
