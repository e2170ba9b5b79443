// The base of the absolute URLs the server writes (link-preview tags, picture links in a Markdown
// export). PUBLIC_URL when set; otherwise the request's own host, but only a host the operator
// trusts: loopback (someone trying the app on their own machine) or one listed in ALLOWED_HOSTS.
// Any other Host header is the client's word, and echoing it into a page lets whoever sends it
// point a cached preview's links and images at a site of their own; such answers get no
// absolute URLs at all (null), and the log says once why, naming the variable to set.
import { isIPv4 } from 'node:net';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AppConfig } from '@server/kernel/config';

/** host[:port], with an IPv6 address in brackets, as a Host header carries it; nothing else. */
const HOST_HEADER = /^(?<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || (isIPv4(name) && name.startsWith('127.'));
}

/** Whether a Host header names this server as the operator allows it to be named. */
export function isTrustedHost(host: string, allowedHosts: readonly string[]): boolean {
  const match = HOST_HEADER.exec(host.toLowerCase());
  if (!match?.groups) return false;
  const name = match.groups.name;
  return isLoopback(name) || allowedHosts.includes(name) || allowedHosts.includes(host.toLowerCase());
}

export type PublicBaseUrl = (request: FastifyRequest) => string | null;

export function createPublicBaseUrl(
  config: Pick<AppConfig, 'publicUrl' | 'allowedHosts'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): PublicBaseUrl {
  let warned = false;
  return (request) => {
    if (config.publicUrl) return config.publicUrl;
    // request.host is the Host header, or X-Forwarded-Host from a trusted proxy (TRUST_PROXY).
    const host = (request.host || '').toLowerCase();
    // request.protocol is X-Forwarded-Proto's word behind a trusted proxy: only its two meanings.
    const protocol = request.protocol === 'https' ? 'https' : 'http';
    if (isTrustedHost(host, config.allowedHosts)) return `${protocol}://${host}`;
    if (!warned) {
      warned = true;
      log.warn(
        { host: host.slice(0, 100) },
        'PUBLIC_URL is unset and this request came for a host that is neither loopback nor in ALLOWED_HOSTS: link previews and exported picture links are written without absolute URLs. Set PUBLIC_URL (or ALLOWED_HOSTS).',
      );
    }
    return null;
  };
}
