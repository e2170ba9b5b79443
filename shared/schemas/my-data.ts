// The player's own data ('My data'): GET /api/user/export downloads all of it as JSON;
// DELETE /api/user {password} deletes the account and everything of theirs, keeping only anonymous
// usage rows for the operator's totals.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../constants';

export const MY_DATA_FORMAT = 'taleweaver.account';
export const MY_DATA_VERSION = 1;

export const MY_DATA_MESSAGES = {
  passwordRequired: 'Please enter your password to delete your account.',
  passwordWrong: 'That password is not right. Your account was not deleted.',
} as const;

export const deleteAccountBodySchema = z.object({
  password: z
    .string({ error: MY_DATA_MESSAGES.passwordRequired })
    .min(1, MY_DATA_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, MY_DATA_MESSAGES.passwordWrong),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;
