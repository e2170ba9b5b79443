// What route plugins receive: every service compose.ts builds, and the few HTTP helpers buildApp
// adds around them (the config, the session cookies, the trusted base of absolute URLs).
//
// The services' half is not written out here: compose.ts fills `ComposedServices` in from what it
// returns (a module augmentation, the way app.ts adds `turns` to Fastify's instance), so a new
// service is one edit in compose.ts, documented there, and http/ still imports nothing above it.
import type { AppConfig } from '@server/kernel/config';
import type { SessionCookies } from '@server/http/plugins/session';
import type { PublicBaseUrl } from './public-url';

/** What composeServices returns, member for member (compose.ts declares it from its return type). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members come from compose.ts
export interface ComposedServices {}

export type RouteContext = ComposedServices & {
  config: AppConfig;
  sessionCookies: SessionCookies;
  /** The trusted base of absolute URLs for this request (PUBLIC_URL, or a loopback or allowed host), else null. */
  publicBaseUrl: PublicBaseUrl;
};
