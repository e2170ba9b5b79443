// Setup of the API projects: a test that fails carries, in its message, the errors its app logged
// while it ran (server-errors.ts), so a 500 seen once in CI names its cause.
import { afterEach, beforeEach } from 'vitest';
import { takeServerErrors } from './server-errors';

beforeEach(() => {
  takeServerErrors();
});

afterEach(({ task }) => {
  const errors = takeServerErrors();
  const failure = task.result?.errors?.[0];
  if (task.result?.state !== 'fail' || !failure || errors.length === 0) return;
  failure.message += `\n\nThe server logged:\n${errors.join('\n\n')}`;
});
