// The auth feature's door: the session (hooks, the user query), sign-in prompts and dialogs, the auth page.
export { clearSessionUser, userQueryKey, userQueryOptions } from './api/get-user';
export { AuthDialog } from './components/auth-dialog';
export { LoginRequiredCard } from './components/login-required-card';
export { SignInPrompt } from './components/sign-in-prompt';
export { useAuthGate } from './hooks/use-auth-gate';
export { useLogout } from './hooks/use-logout';
export { useSession } from './hooks/use-session';
export { useSessionHeartbeat } from './hooks/use-session-heartbeat';
export { clearLocalUserData } from './utils/session-persistence';
export { AuthPage } from './lazy-page';
