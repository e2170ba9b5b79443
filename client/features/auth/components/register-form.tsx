// The registration form: username (with a live availability hint), email, password and a CAPTCHA,
// validated by the shared registerBodySchema. A failure that concerns the CAPTCHA, or a network
// failure, brings a fresh question and clears the old answer.
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { registerBodySchema } from '@shared/schemas/auth';
import { ERROR_CODES } from '@shared/schemas/common';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { PasswordInput } from '@client/components/ui/password-input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { useRegisterMutation } from '../api/register';
import { useCaptcha } from '../hooks/use-captcha';
import { useUsernameAvailability } from '../hooks/use-username-availability';
import { AUTH_STRINGS } from '../strings';
import { rememberLastUsername } from '../utils/session-persistence';
import { CaptchaBox } from './captcha-box';
import type { AuthFormProps } from './login-form';
import { UsernameStatus } from './username-status';

/** A thrown (network) error, or a server message about the CAPTCHA, means the question must change. */
export function shouldReloadCaptcha(error: unknown): boolean {
  if (!isApiRequestError(error) || error.status === 0) return true;
  return error.code === ERROR_CODES.captcha || /captcha/i.test(error.message);
}

export function RegisterForm({ onSuccess, variant = 'page' }: AuthFormProps) {
  const registration = useRegisterMutation();
  const captcha = useCaptcha();
  const questionId = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(registerBodySchema),
    defaultValues: { username: '', email: '', password: '', captchaAnswer: '' },
  });
  const username = useWatch({ control, name: 'username' });
  const availability = useUsernameAvailability(username);

  const handleRegister = handleSubmit(async (values) => {
    if (availability === 'taken') {
      setError('username', { message: AUTH_STRINGS.usernameTaken }, { shouldFocus: true });
      return;
    }
    try {
      const user = await registration.mutateAsync(values);
      rememberLastUsername(user.username);
      toast({ title: AUTH_STRINGS.registerSuccessTitle, description: AUTH_STRINGS.registerSuccessText(user.username) });
      onSuccess?.(user);
    } catch (error) {
      toast({
        title: variant === 'dialog' ? AUTH_STRINGS.dialogRegisterFailedTitle : AUTH_STRINGS.registerFailedTitle,
        description: errorMessage(error, AUTH_STRINGS.registerFailedDefault),
        variant: 'destructive',
      });
      if (shouldReloadCaptcha(error)) {
        setValue('captchaAnswer', '');
        captcha.reload();
      }
    }
  });

  return (
    <form noValidate onSubmit={handleRegister} className="grid gap-4" aria-label={AUTH_STRINGS.registerTitle}>
      <FormField
        label={AUTH_STRINGS.usernameLabel}
        error={errors.username?.message}
        hint={<UsernameStatus availability={availability} />}
      >
        {(fieldControl) => (
          <Input
            {...fieldControl}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...register('username')}
          />
        )}
      </FormField>
      <FormField label={AUTH_STRINGS.emailLabel} error={errors.email?.message}>
        {(fieldControl) => <Input {...fieldControl} type="email" autoComplete="email" {...register('email')} />}
      </FormField>
      <FormField label={AUTH_STRINGS.passwordLabel} error={errors.password?.message}>
        {(fieldControl) => <PasswordInput {...fieldControl} autoComplete="new-password" {...register('password')} />}
      </FormField>
      <CaptchaBox captcha={captcha} questionId={questionId} />
      <FormField label={AUTH_STRINGS.captchaAnswerLabel} error={errors.captchaAnswer?.message} describedBy={questionId}>
        {(fieldControl) => (
          <Input {...fieldControl} autoComplete="off" inputMode="text" {...register('captchaAnswer')} />
        )}
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full">
        {isSubmitting ? AUTH_STRINGS.registerSubmitting : AUTH_STRINGS.registerSubmit}
      </Button>
    </form>
  );
}
