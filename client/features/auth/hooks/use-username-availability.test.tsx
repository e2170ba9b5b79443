// The username hint asks the server only 500 ms after typing stops, and only for 3+ valid characters.
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@client/lib/query-client';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { useUsernameAvailability } from './use-username-availability';

function setup(taken: string[] = []) {
  vi.useFakeTimers();
  const fetchMock = mockFetch(({ url }) => {
    const username = new URL(url, 'http://test').searchParams.get('username') ?? '';
    return jsonResponse({ available: !taken.includes(username) });
  });
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ name }: { name: string }) => useUsernameAvailability(name), {
    wrapper,
    initialProps: { name: '' },
  });
  return { ...hook, fetchMock };
}

const flush = () => act(() => vi.advanceTimersByTimeAsync(20));

describe('useUsernameAvailability', () => {
  it('stays unknown and silent below three characters or with invalid characters', async () => {
    const { result, rerender, fetchMock } = setup();
    rerender({ name: 'ab' });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe('unknown');
    rerender({ name: 'ab!' });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe('unknown');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('waits until typing has stopped for 500 ms, then checks once', async () => {
    const { result, rerender, fetchMock } = setup();
    rerender({ name: 'ada' });
    expect(result.current).toBe('checking');
    await act(() => vi.advanceTimersByTimeAsync(400));
    rerender({ name: 'adal' });
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.current).toBe('checking');

    await act(() => vi.advanceTimersByTimeAsync(1));
    await flush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.requests[0].url).toBe('/api/check-username?username=adal');
    expect(result.current).toBe('available');
  });

  it('reports a taken name', async () => {
    const { result, rerender } = setup(['grace']);
    rerender({ name: 'grace' });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(result.current).toBe('taken');
  });

  it('falls back to unknown when the check fails', async () => {
    vi.useFakeTimers();
    mockFetch(() => jsonResponse({ message: 'Too many requests', code: 'RATE_LIMITED' }, { status: 429 }));
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useUsernameAvailability('linus'), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await flush();
    expect(result.current).toBe('unknown');
  });
});
