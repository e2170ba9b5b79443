// Change Username: validated by the shared changeUsernameBodySchema (at least 3 characters).
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changeUsernameBodySchema } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useChangeUsernameMutation } from '../api/change-username';
import { ACCOUNT_STRINGS } from '../strings';

export function ChangeUsernameForm() {
  const changeUsername = useChangeUsernameMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(changeUsernameBodySchema), defaultValues: { newUsername: '' } });

  const handleChangeUsername = handleSubmit(async (values) => {
    try {
      await changeUsername.mutateAsync(values);
      toast({ title: ACCOUNT_STRINGS.usernameSuccessTitle, description: ACCOUNT_STRINGS.usernameSuccessText });
      reset();
    } catch (error) {
      toast({
        title: ACCOUNT_STRINGS.usernameFailedTitle,
        description: errorMessage(error, ACCOUNT_STRINGS.usernameFailedDefault),
        variant: 'destructive',
      });
    }
  });

  return (
    <form
      noValidate
      onSubmit={handleChangeUsername}
      className="grid gap-4"
      aria-label={ACCOUNT_STRINGS.usernameSection}
    >
      <FormField label={ACCOUNT_STRINGS.newUsernameLabel} error={errors.newUsername?.message}>
        {(control) => (
          <Input
            {...control}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...register('newUsername')}
          />
        )}
      </FormField>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? ACCOUNT_STRINGS.saving : ACCOUNT_STRINGS.usernameSubmit}
        </Button>
      </div>
    </form>
  );
}
