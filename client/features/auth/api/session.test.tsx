// Session rules: 401 means logged out and clears the saved id, 5xx leaves no user,
// the 30 s HEAD check ends an expired session, and logout clears local data even when it fails.
import type { ReactNode } from 'react';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@client/components/ui/toaster';
import { createQueryClient } from '@client/lib/query-client';
import { LOCAL_STORAGE_KEYS, SESSION_STORAGE_KEYS } from '@client/lib/storage-keys';
import { buildUser, jsonResponse, mockFetch, unauthenticated } from '@client/test/utils';
import { useSessionHeartbeat } from '../hooks/use-session-heartbeat';
import { useSession } from '../hooks/use-session';
import { fetchUser, userQueryKey } from './get-user';
import { useLogoutMutation } from './logout';

function wrapperFor(client = createQueryClient()) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>{children}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>
  );
}

describe('fetchUser', () => {
  it('returns the user and remembers its id', async () => {
    mockFetch(() => jsonResponse(buildUser({ id: 42 })));
    await expect(fetchUser()).resolves.toMatchObject({ id: 42, username: 'ada' });
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.userId)).toBe('42');
  });

  it('treats 401 as logged out and clears the saved id', async () => {
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.userId, '42');
    mockFetch(unauthenticated);
    await expect(fetchUser()).resolves.toBeNull();
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.userId)).toBeNull();
  });

  it('fails on a server error and rejects a malformed user', async () => {
    mockFetch(() => jsonResponse({ message: 'Database unavailable', code: 'INTERNAL_ERROR' }, { status: 503 }));
    await expect(fetchUser()).rejects.toMatchObject({ status: 503, message: 'Database unavailable' });

    mockFetch(() => jsonResponse({ id: 'seven' }));
    await expect(fetchUser()).rejects.toMatchObject({ message: 'Invalid response format' });
  });
});

describe('useSession', () => {
  it('retries a server error once, then reports no user', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: 'Down', code: 'INTERNAL_ERROR' }, { status: 500 }));
    const { result } = renderHook(() => useSession(), { wrapper: wrapperFor() });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.isLoading).toBe(false), { timeout: 3000 });
    expect(result.current).toMatchObject({ user: null, isLoggedIn: false, isAdmin: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 401', async () => {
    const fetchMock = mockFetch(unauthenticated);
    const { result } = renderHook(() => useSession(), { wrapper: wrapperFor() });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.isLoggedIn).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('useSessionHeartbeat', () => {
  it('checks with HEAD every 30 s while a user id is saved, and a 401 logs out', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.userId, '7');
    const client = createQueryClient();
    client.setQueryData(userQueryKey, buildUser());
    let status = 200;
    const fetchMock = mockFetch(() => new Response(null, { status }));
    renderHook(() => useSessionHeartbeat(7), { wrapper: wrapperFor(client) });

    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(fetchMock.requests).toHaveLength(1);
    expect(fetchMock.requests[0]).toMatchObject({ method: 'HEAD', url: '/api/user' });
    expect(client.getQueryData(userQueryKey)).not.toBeNull();

    status = 401;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(fetchMock.requests).toHaveLength(2);
    expect(client.getQueryData(userQueryKey)).toBeNull();
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.userId)).toBeNull();
  });

  it('reads the user again when the session is active but no user is shown', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.userId, '7');
    const client = createQueryClient();
    const fetchMock = mockFetch(({ method }) =>
      method === 'HEAD' ? new Response(null, { status: 200 }) : jsonResponse(buildUser()),
    );
    renderHook(() => useSession(), { wrapper: wrapperFor(client) });
    // Simulate an earlier failed read: the query holds no user.
    await act(() => vi.advanceTimersByTimeAsync(10));
    client.setQueryData(userQueryKey, null);
    renderHook(() => useSessionHeartbeat(null), { wrapper: wrapperFor(client) });
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(fetchMock.requests.map((request) => request.method)).toEqual(['GET', 'HEAD', 'GET']);
    expect(client.getQueryData(userQueryKey)).toMatchObject({ id: 7 });
  });

  it('does nothing without a saved user id', async () => {
    vi.useFakeTimers();
    const fetchMock = mockFetch(() => new Response(null, { status: 200 }));
    renderHook(() => useSessionHeartbeat(null), { wrapper: wrapperFor() });
    await act(() => vi.advanceTimersByTimeAsync(90_000));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('logout', () => {
  function LogoutButton() {
    const logout = useLogoutMutation();
    return <button onClick={() => logout.mutate()}>log out</button>;
  }

  function seedLocalUserData() {
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.userId, '7');
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.currentStory, '{}');
    window.localStorage.setItem(LOCAL_STORAGE_KEYS.theme, 'light');
    window.sessionStorage.setItem(SESSION_STORAGE_KEYS.lastLoginUsername, 'ada');
  }

  function expectLocalUserDataCleared(client: ReturnType<typeof createQueryClient>) {
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.userId)).toBeNull();
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.currentStory)).toBeNull();
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEYS.lastLoginUsername)).toBeNull();
    // The theme belongs to the device, not the person.
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.theme)).toBe('light');
    expect(client.getQueryData(userQueryKey)).toBeNull();
  }

  it('confirms a successful logout', async () => {
    seedLocalUserData();
    const client = createQueryClient();
    client.setQueryData(userQueryKey, buildUser());
    const fetchMock = mockFetch(() => jsonResponse({ success: true }));
    render(<LogoutButton />, { wrapper: wrapperFor(client) });
    act(() => screen.getByRole('button', { name: 'log out' }).click());

    expect(await screen.findByText('You have been successfully logged out')).toBeInTheDocument();
    expect(screen.getByText('Logged Out')).toBeInTheDocument();
    expect(fetchMock.requests[0]).toMatchObject({ method: 'POST', url: '/api/logout' });
    expectLocalUserDataCleared(client);
  });

  it('still clears local data when the server call fails', async () => {
    seedLocalUserData();
    const client = createQueryClient();
    client.setQueryData(userQueryKey, buildUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    render(<LogoutButton />, { wrapper: wrapperFor(client) });
    act(() => screen.getByRole('button', { name: 'log out' }).click());

    expect(await screen.findByText('You have been logged out locally')).toBeInTheDocument();
    expectLocalUserDataCleared(client);
  });
});
