// The login form: 'Username or Email' and password, validated by the shared loginBodySchema (so the
// messages match the server's), prefilled with the username this tab last logged in with.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/user';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { PasswordInput } from '@client/components/ui/password-input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useLoginMutation } from '../api/login';
import { AUTH_STRINGS } from '../strings';
import { readLastUsername, rememberLastUsername } from '../utils/session-persistence';

export interface AuthFormProps {
  /** Runs after the session is established and the success toast is shown. */
  onSuccess?: (user: User) => void;
  /** The auth dialog's toasts are worded differently from the auth page's. */
  variant?: 'page' | 'dialog';
}

export function LoginForm({ onSuccess, variant = 'page' }: AuthFormProps) {
  const login = useLoginMutation();
  const [rememberedUsername] = useState(readLastUsername);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { username: rememberedUsername, password: '' },
  });

  const handleLogin = handleSubmit(async (values) => {
    try {
      const user = await login.mutateAsync(values);
      rememberLastUsername(user.username);
      const inDialog = variant === 'dialog';
      const welcome = inDialog ? AUTH_STRINGS.dialogLoginSuccessText : AUTH_STRINGS.loginSuccessText;
      toast({
        title: inDialog ? AUTH_STRINGS.dialogLoginSuccessTitle : AUTH_STRINGS.loginSuccessTitle,
        description: user.isAdmin ? AUTH_STRINGS.loginSuccessAdminText : welcome,
      });
      onSuccess?.(user);
    } catch (error) {
      const title = variant === 'dialog' ? AUTH_STRINGS.dialogLoginFailedTitle : AUTH_STRINGS.loginFailedTitle;
      toast({ title, description: errorMessage(error, AUTH_STRINGS.loginFailedDefault), variant: 'destructive' });
    }
  });

  return (
    <form noValidate onSubmit={handleLogin} className="grid gap-4" aria-label={AUTH_STRINGS.loginTitle}>
      <FormField label={AUTH_STRINGS.usernameOrEmailLabel} error={errors.username?.message}>
        {(control) => (
          <Input
            {...control}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...register('username')}
          />
        )}
      </FormField>
      <FormField label={AUTH_STRINGS.passwordLabel} error={errors.password?.message}>
        {(control) => <PasswordInput {...control} autoComplete="current-password" {...register('password')} />}
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full">
        {isSubmitting ? AUTH_STRINGS.loginSubmitting : AUTH_STRINGS.loginSubmit}
      </Button>
    </form>
  );
}
