// Open-redirect protection and the spec's post-auth destination order.
import { describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { buildAuthPath, isTokenPurchaseRedirect, resolvePostAuthDestination, toSafeRedirect } from './auth-redirect';

describe('toSafeRedirect', () => {
  it('keeps same-origin paths with their query and hash', () => {
    expect(toSafeRedirect('/story/12?messageId=40')).toBe('/story/12?messageId=40');
    expect(toSafeRedirect('/bookmarks#top')).toBe('/bookmarks#top');
    expect(toSafeRedirect('/')).toBe('/');
  });

  it.each([
    ['absolute URL', 'https://evil.example/phish'],
    ['protocol-relative', '//evil.example'],
    ['backslash trick', '/\\evil.example'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['relative path', 'story/1'],
    ['tab hiding a host', '/\t/evil.example'],
    ['newline hiding a host', '/\n/evil.example'],
    ['empty', ''],
    ['missing', null],
  ])('rejects %s', (_label, value) => {
    expect(toSafeRedirect(value)).toBeNull();
  });
});

describe('resolvePostAuthDestination', () => {
  const none = { operationPath: null, continuationPath: null };

  it('follows the spec order: pending operation, pending continuation, redirect, story params, home', () => {
    const search = '?redirect=%2Fbookmarks&scenario=dragons';
    expect(resolvePostAuthDestination(search, { operationPath: '/?resume=1', continuationPath: '/story/3' })).toBe(
      '/?resume=1',
    );
    expect(resolvePostAuthDestination(search, { operationPath: null, continuationPath: '/story/3' })).toBe('/story/3');
    expect(resolvePostAuthDestination(search, none)).toBe('/bookmarks');
    expect(resolvePostAuthDestination('?scenario=dragons&type=random&preset=fantasy&other=x', none)).toBe(
      '/story/new?scenario=dragons&type=random&preset=fantasy',
    );
    expect(resolvePostAuthDestination('', none)).toBe('/');
  });

  it('skips unsafe entries and moves on to the next source', () => {
    expect(
      resolvePostAuthDestination('?redirect=https%3A%2F%2Fevil.example', {
        operationPath: '//evil.example',
        continuationPath: null,
      }),
    ).toBe('/');
    expect(resolvePostAuthDestination('?redirect=%2F%2Fevil.example&type=random', none)).toBe('/story/new?type=random');
  });

  it('never sends the user back to the auth page', () => {
    expect(resolvePostAuthDestination('?redirect=%2Fauth%3Fredirect%3D%2Fadmin', none)).toBe('/');
    expect(resolvePostAuthDestination('?redirect=%2Fauthors', none)).toBe('/authors');
  });

  it('reads pending paths from localStorage by default, ignoring malformed entries', () => {
    window.localStorage.setItem(
      LOCAL_STORAGE_KEYS.pendingContinuation,
      JSON.stringify({ type: 'continue_story', storyId: 4, message: 'I open the door', path: '/story/4' }),
    );
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.pendingOperation, '{not json');
    expect(resolvePostAuthDestination('?redirect=%2Fbookmarks')).toBe('/story/4');

    window.localStorage.setItem(
      LOCAL_STORAGE_KEYS.pendingOperation,
      JSON.stringify({
        type: 'start_story',
        data: { prompt: 'A heist', genrePreferences: { fantasy: 50 }, isRandom: false },
        path: '/',
      }),
    );
    expect(resolvePostAuthDestination('?redirect=%2Fbookmarks')).toBe('/');
  });
});

describe('auth links', () => {
  it('encodes the return path', () => {
    expect(buildAuthPath('/story/5?messageId=9')).toBe('/auth?redirect=%2Fstory%2F5%3FmessageId%3D9');
  });

  it('detects the token purchase flow', () => {
    expect(isTokenPurchaseRedirect('?redirect=%2Ftokens%3Fpackage%3Dstarter')).toBe(true);
    expect(isTokenPurchaseRedirect('?redirect=%2Ftokens&package=starter')).toBe(true);
    expect(isTokenPurchaseRedirect('?redirect=%2Ftokens')).toBe(false);
    expect(isTokenPurchaseRedirect('?redirect=%2Fbookmarks%3Fpackage%3Dstarter')).toBe(false);
    expect(isTokenPurchaseRedirect('?redirect=https%3A%2F%2Fevil.example%2Ftokens%3Fpackage%3Dx')).toBe(false);
  });
});
