// Which Host headers may stand for this server in absolute URLs when PUBLIC_URL is unset.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createPublicBaseUrl, isTrustedHost } from './public-url';

describe('isTrustedHost', () => {
  it.each([
    'localhost',
    'localhost:3000',
    'LOCALHOST:8080',
    '127.0.0.1',
    '127.0.0.1:3000',
    '127.200.1.9',
    '[::1]',
    '[::1]:3000',
    'stories.example.com',
    'Stories.Example.COM:443',
    'tales.example:8443',
  ])('trusts %s', (host) => {
    expect(isTrustedHost(host, ['stories.example.com', 'tales.example:8443'])).toBe(true);
  });

  it.each([
    'evil.example',
    'tales.example',
    'tales.example:8080',
    'localhost.evil.example',
    '127.0.0.1.evil.example',
    'evil.example#@localhost',
    'localhost/evil',
    'localhost:3000@evil.example',
    '128.0.0.1',
    '[::2]',
    '[::ffff:127.0.0.1]',
    '',
    'stories.example.com.evil.example',
  ])('does not trust %s', (host) => {
    expect(isTrustedHost(host, ['stories.example.com', 'tales.example:8443'])).toBe(false);
  });
});

describe('createPublicBaseUrl', () => {
  const request = (host: string | undefined, protocol = 'http') => ({ host, protocol }) as unknown as FastifyRequest;

  it('prefers PUBLIC_URL, else a trusted host with its scheme, else nothing, warning once', () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    expect(
      createPublicBaseUrl({ publicUrl: 'https://tales.example.org', allowedHosts: [] }, log)(request('evil.example')),
    ).toBe('https://tales.example.org');
    const base = createPublicBaseUrl({ publicUrl: undefined, allowedHosts: ['stories.example.com'] }, log);
    expect(base(request('Stories.Example.com', 'https'))).toBe('https://stories.example.com');
    expect(base(request('localhost:3000'))).toBe('http://localhost:3000');
    expect(base(request('localhost:3000', 'javascript'))).toBe('http://localhost:3000');
    expect(warnings).toHaveLength(0);
    expect(base(request('evil.example'))).toBeNull();
    expect(base(request(undefined))).toBeNull();
    expect(base(request('other.example'))).toBeNull();
    expect(warnings).toHaveLength(1);
  });
});
