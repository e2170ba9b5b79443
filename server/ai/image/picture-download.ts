// Fetching the picture behind a URL a painter answered with, without letting that URL reach what
// the server can reach. The URL is the provider's answer, and a provider (or whoever answers in
// its place) could name the cloud's metadata service, a database's HTTP port or a router's admin
// page; the server would fetch it from inside. So a picture URL is fetched:
// - over http or https only, never following a redirect (a public URL could send us anywhere);
// - from the provider's own host (IMAGE_BASE_URL's, which the operator chose and may be a LAN
//   server such as LocalAI), or else only from a public address: the name is resolved, every
//   address it has must be public (no loopback, private, link-local, CGNAT, multicast,
//   unspecified, documentation or reserved ranges, nor IPv4-mapped or NAT64 forms of them), and
//   the connection goes to the address that was checked, through the socket's own lookup, so a
//   second DNS answer (rebinding) cannot switch it.
// The size cap and the deadline are the caller's (provider-http.ts).
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Readable } from 'node:stream';

/** Special-purpose IPv4 ranges (RFC 6890 and successors) that are not globally reachable. */
const NOT_PUBLIC_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
/** Inside global unicast (2000::/3), the IPv6 ranges that are still not public. */
const NOT_PUBLIC_V6: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address of any kind inside
  ['3fff::', 20], // documentation
];

const notPublic = new BlockList();
for (const [network, prefix] of NOT_PUBLIC_V4) notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of NOT_PUBLIC_V6) notPublic.addSubnet(network, prefix, 'ipv6');
/** Everything else in IPv6 (loopback, unspecified, IPv4-compatible, ULA fc00::/7, link-local, multicast) lies outside 2000::/3. */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** An IPv6 address as its eight 16-bit words, or null when it is not one. */
function ipv6Words(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** Whether an IP address (v4 or v6, no zone) is one the public internet routes to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  const words = ipv6Words(address);
  if (!words) return false;
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address inside.
  const mapped = words.slice(0, 6).every((word, i) => word === (i === 5 ? 0xffff : 0));
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0);
  if (mapped || nat64)
    return isPublicAddress(`${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`);
  return globalUnicast.check(address, 'ipv6') && !notPublic.check(address, 'ipv6');
}

export class NotPublicAddressError extends Error {
  readonly code = 'ENOTPUBLIC';
}

export type Resolve = (hostname: string) => Promise<LookupAddress[]>;
const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A socket `lookup` that resolves once and hands the socket only addresses it has checked:
 * every address of the name must be public (one private address among public ones is refused,
 * since the socket may try any of them).
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const addresses =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (addresses.length === 0 || refused) {
          const why = refused ? `${refused.address}, which is not a public address` : 'no address';
          return callback(new NotPublicAddressError(`${hostname} resolves to ${why}`), '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export interface PictureRequest {
  /** IMAGE_BASE_URL's host (name and port): its addresses are the operator's choice, not checked. */
  providerHost: string;
  signal: AbortSignal;
  /** How names are resolved (tests pass their own). */
  resolve?: Resolve;
}

/** Why a picture URL is refused before any connection, or null when it may be fetched. */
export function refusedPictureUrl(url: URL, providerHost: string): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `picture URL is neither http(s) nor data: (${url.protocol})`;
  if (url.host === providerHost.toLowerCase()) return null;
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) && !isPublicAddress(literal)) return `picture URL names ${literal}, which is not a public address`;
  return null;
}

/**
 * GETs a picture URL under the rules above and answers the status and body as a fetch Response,
 * so that the callers' size cap reads it. A redirect is answered as it came (3xx), unfollowed.
 */
export function getPicture(url: URL, request: PictureRequest): Promise<Response> {
  const ownHost = url.host === request.providerHost.toLowerCase();
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = lib.get(
      url,
      {
        signal: request.signal,
        // A fresh connection per picture: a pooled socket would skip the lookup below.
        agent: false,
        headers: { accept: 'image/*' },
        // Not called for an address literal: refusedPictureUrl checked that one.
        ...(ownHost ? {} : { lookup: publicOnlyLookup(request.resolve) }),
      },
      (incoming: IncomingMessage) => resolve(asResponse(incoming)),
    );
    outgoing.on('error', reject);
  });
}

function asResponse(incoming: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const status = incoming.statusCode ?? 502;
  // A fetch Response may carry no body with these statuses.
  const bodyless = status === 204 || status === 205 || status === 304;
  if (bodyless) incoming.resume();
  return new Response(bodyless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, headers });
}
