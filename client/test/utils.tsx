// Test helpers for client tests: a scripted fetch, JSON responses, a user factory, rendering inside
// the app's real providers (query rules, theme, toasts) with an in-memory router, and a wait for an
// element a click can reach.
import type { ReactElement, ReactNode } from 'react';
import { render, waitFor, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { expect, vi, type Mock } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@shared/schemas/user';
import { AppProviders, createAppQueryClient } from '@client/app/providers';

export function jsonResponse(
  body: unknown,
  init: { status?: number; statusText?: string; headers?: Record<string, string> } = {},
): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: init.status ?? 200,
    statusText: init.statusText,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type FetchHandler = (request: RecordedRequest) => Response | Promise<Response>;

/** Replaces global fetch; every call is recorded with its parsed JSON body for assertions. */
export function mockFetch(
  handler: FetchHandler,
): Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>> & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const rawBody = typeof init.body === 'string' ? init.body : null;
    const request: RecordedRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: rawBody === null ? null : (JSON.parse(rawBody) as unknown),
      credentials: init.credentials,
    };
    requests.push(request);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return Object.assign(fetchMock, { requests });
}

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    username: 'ada',
    email: 'ada@example.com',
    isAdmin: false,
    createdAt: '2025-01-15T10:00:00.000Z',
    lastActive: null,
    tokenUsage: { textTokens: 0, imageTokens: 0, total: 0, thisMonth: 0, balance: 0, monthCostUsd: 0 },
    ...overrides,
  };
}

export const unauthenticated = () =>
  jsonResponse({ message: 'Authentication required', code: 'UNAUTHENTICATED' }, { status: 401 });

export interface RenderAppOptions {
  route?: string;
  queryClient?: QueryClient;
}

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', queryClient = createAppQueryClient() }: RenderAppOptions = {},
): RenderResult & { queryClient: QueryClient } {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
    </AppProviders>
  );
  return Object.assign(render(ui, { wrapper }), { queryClient });
}

/** The pointer-events that reach `element`: the nearest one declared on it or an ancestor, as user-event reads them. */
function pointerEventsReaching(element: Element): string {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const declared = window.getComputedStyle(node).pointerEvents;
    if (declared && declared !== 'inherit' && declared !== 'unset') return declared;
  }
  return 'auto';
}

/**
 * Waits until a click can reach `element`, and answers it. A Radix modal that opens or closes sets
 * the page's pointer events in an effect, one render after the DOM it shows: a click in between is
 * refused, by user-event as by a browser. In a browser that is a frame; in a test it lasts as long as
 * React's scheduler is late, which on a loaded machine was long enough to fail a click.
 */
export async function waitUntilClickable<E extends HTMLElement>(element: E): Promise<E> {
  await waitFor(() => expect(pointerEventsReaching(element)).not.toBe('none'));
  return element;
}
