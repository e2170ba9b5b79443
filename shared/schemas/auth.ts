// Request and response shapes of the account endpoints, with the spec's validation messages
// so the forms and the server reject the same input with the same words.
import { z } from 'zod';
import {
  CAPTCHA_ANSWER_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  NEW_PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../constants';
import { userSchema } from './user';

export const AUTH_MESSAGES = {
  usernameOrEmailRequired: 'Username or Email is required',
  passwordMin: 'Password must be at least 6 characters',
  newPasswordMin: 'Password must be at least 8 characters',
  passwordMax: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  usernameMin: 'Username must be at least 3 characters',
  usernameMax: `Username must be at most ${USERNAME_MAX_LENGTH} characters`,
  usernameChars: 'Username may only contain letters, numbers, dots, dashes and underscores',
  emailInvalid: 'Please enter a valid email address',
  captchaRequired: 'Please solve the CAPTCHA',
  captchaTooLong: 'CAPTCHA answer is too long',
  currentPasswordRequired: 'Current password is required',
  passwordsDontMatch: "Passwords don't match",
} as const;

const text = (message: string) => z.string({ error: message });

export const usernameSchema = text(AUTH_MESSAGES.usernameMin)
  .trim()
  .min(USERNAME_MIN_LENGTH, AUTH_MESSAGES.usernameMin)
  .max(USERNAME_MAX_LENGTH, AUTH_MESSAGES.usernameMax)
  .regex(/^[A-Za-z0-9_.-]+$/, AUTH_MESSAGES.usernameChars);

export const emailSchema = text(AUTH_MESSAGES.emailInvalid)
  .trim()
  .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email(AUTH_MESSAGES.emailInvalid));

const passwordSchema = text(AUTH_MESSAGES.passwordMin)
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordMin)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax);

export const loginBodySchema = z.object({
  username: text(AUTH_MESSAGES.usernameOrEmailRequired)
    .trim()
    .min(1, AUTH_MESSAGES.usernameOrEmailRequired)
    .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.usernameOrEmailRequired),
  password: passwordSchema,
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const registerBodySchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  captchaAnswer: text(AUTH_MESSAGES.captchaRequired)
    .trim()
    .min(1, AUTH_MESSAGES.captchaRequired)
    .max(CAPTCHA_ANSWER_MAX_LENGTH, AUTH_MESSAGES.captchaTooLong),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const checkUsernameQuerySchema = z.object({
  username: text(AUTH_MESSAGES.usernameMin)
    .trim()
    .min(1, AUTH_MESSAGES.usernameMin)
    .max(USERNAME_MAX_LENGTH, AUTH_MESSAGES.usernameMax),
});
export type CheckUsernameQuery = z.infer<typeof checkUsernameQuerySchema>;
export const checkUsernameResponseSchema = z.object({ available: z.boolean() });
export type CheckUsernameResponse = z.infer<typeof checkUsernameResponseSchema>;

export const captchaResponseSchema = z.object({ success: z.literal(true), question: z.string() });
export type CaptchaResponse = z.infer<typeof captchaResponseSchema>;

export const changeUsernameBodySchema = z.object({ newUsername: usernameSchema });
export type ChangeUsernameBody = z.infer<typeof changeUsernameBodySchema>;

export const changePasswordBodySchema = z.object({
  currentPassword: text(AUTH_MESSAGES.currentPasswordRequired)
    .min(1, AUTH_MESSAGES.currentPasswordRequired)
    .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax),
  newPassword: text(AUTH_MESSAGES.newPasswordMin)
    .min(NEW_PASSWORD_MIN_LENGTH, AUTH_MESSAGES.newPasswordMin)
    .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The change-password form adds a confirmation the server never sees. */
export const changePasswordFormSchema = changePasswordBodySchema
  .extend({ confirmPassword: z.string() })
  .refine((value) => value.confirmPassword === value.newPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

export const updateEmailBodySchema = z.object({ email: emailSchema });
export type UpdateEmailBody = z.infer<typeof updateEmailBodySchema>;

export const userResponseSchema = userSchema;
export const logoutResponseSchema = z.object({ success: z.literal(true) });
