// Change Password: the shared changePasswordFormSchema adds the confirmation the server never sees;
// only {currentPassword, newPassword} is sent.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordFormSchema } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from '@client/components/ui/password-input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useChangePasswordMutation } from '../api/change-password';
import { ACCOUNT_STRINGS } from '../strings';

export function ChangePasswordForm() {
  const changePassword = useChangePasswordMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const handleChangePassword = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword });
      toast({ title: ACCOUNT_STRINGS.passwordSuccessTitle });
      reset();
    } catch (error) {
      toast({
        title: ACCOUNT_STRINGS.passwordFailedTitle,
        description: errorMessage(error, ACCOUNT_STRINGS.passwordFailedDefault),
        variant: 'destructive',
      });
    }
  });

  return (
    <form
      noValidate
      onSubmit={handleChangePassword}
      className="grid gap-4"
      aria-label={ACCOUNT_STRINGS.passwordSection}
    >
      {/* Lets password managers tie the new password to the right account. */}
      <input type="text" name="username" autoComplete="username" hidden readOnly />
      <FormField label={ACCOUNT_STRINGS.currentPasswordLabel} error={errors.currentPassword?.message}>
        {(control) => <PasswordInput {...control} autoComplete="current-password" {...register('currentPassword')} />}
      </FormField>
      <FormField label={ACCOUNT_STRINGS.newPasswordLabel} error={errors.newPassword?.message}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...register('newPassword')} />}
      </FormField>
      <FormField label={ACCOUNT_STRINGS.confirmPasswordLabel} error={errors.confirmPassword?.message}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...register('confirmPassword')} />}
      </FormField>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? ACCOUNT_STRINGS.saving : ACCOUNT_STRINGS.passwordSubmit}
        </Button>
      </div>
    </form>
  );
}
