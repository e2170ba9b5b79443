// Decides whether the 'Email Required' dialog is needed: only for a logged-in user without an email.
// The dialog (and its form code) is loaded lazily, so visitors never download it.
import { lazy, Suspense } from 'react';
import { useSession } from '@client/features/auth';

const EmailRequiredDialog = lazy(() =>
  import('./email-required-dialog').then((module) => ({ default: module.EmailRequiredDialog })),
);

export function EmailRequiredGate() {
  const { user } = useSession();
  if (!user || (user.email !== null && user.email.trim() !== '')) return null;
  return (
    <Suspense fallback={null}>
      <EmailRequiredDialog />
    </Suspense>
  );
}
