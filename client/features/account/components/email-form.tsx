// The account page's email form: shows the current address and changes it (POST /api/update-email).
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { updateEmailBodySchema } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useUpdateEmailMutation } from '../api/update-email';
import { ACCOUNT_STRINGS } from '../strings';

export function EmailForm({ currentEmail }: { currentEmail: string | null }) {
  const updateEmail = useUpdateEmailMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(updateEmailBodySchema), defaultValues: { email: '' } });

  const handleUpdateEmail = handleSubmit(async (values) => {
    try {
      await updateEmail.mutateAsync(values);
      toast({ title: ACCOUNT_STRINGS.emailSuccessTitle, description: ACCOUNT_STRINGS.emailSuccessText });
      reset();
    } catch (error) {
      toast({
        title: ACCOUNT_STRINGS.emailFailedTitle,
        description: errorMessage(error, ACCOUNT_STRINGS.emailFailedDefault),
        variant: 'destructive',
      });
    }
  });

  return (
    <form noValidate onSubmit={handleUpdateEmail} className="grid gap-4" aria-label={ACCOUNT_STRINGS.emailSection}>
      <dl className="grid gap-1 text-sm">
        <dt className="text-muted-foreground">{ACCOUNT_STRINGS.currentEmailLabel}</dt>
        <dd className="font-medium break-all">{currentEmail ?? ACCOUNT_STRINGS.noEmail}</dd>
      </dl>
      <FormField label={ACCOUNT_STRINGS.newEmailLabel} error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...register('email')} />}
      </FormField>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? ACCOUNT_STRINGS.saving : ACCOUNT_STRINGS.emailSubmit}
        </Button>
      </div>
    </form>
  );
}
