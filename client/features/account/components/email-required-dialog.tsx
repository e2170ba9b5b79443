// The blocking 'Email Required' dialog: no close button, Escape and outside clicks
// do nothing; it goes away only when a valid email is saved and the refreshed user carries it.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { updateEmailBodySchema } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useUpdateEmailMutation } from '../api/update-email';
import { ACCOUNT_STRINGS } from '../strings';

export function EmailRequiredDialog() {
  const updateEmail = useUpdateEmailMutation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(updateEmailBodySchema), defaultValues: { email: '' } });

  const handleSaveEmail = handleSubmit(async (values) => {
    try {
      await updateEmail.mutateAsync(values);
      toast({ title: ACCOUNT_STRINGS.emailAddedTitle, description: ACCOUNT_STRINGS.emailAddedText });
    } catch (error) {
      toast({
        title: ACCOUNT_STRINGS.emailAddFailedTitle,
        description: errorMessage(error, ACCOUNT_STRINGS.emailFailedDefault),
        variant: 'destructive',
      });
    }
  });

  return (
    // Controlled open with no onOpenChange: Escape and outside clicks ask to close and nothing
    // listens. The app unmounts the dialog once the refreshed user has an email.
    <Dialog open>
      <DialogContent hideClose>
        <DialogHeader>
          <DialogTitle>{ACCOUNT_STRINGS.emailRequiredTitle}</DialogTitle>
          <DialogDescription>{ACCOUNT_STRINGS.emailRequiredText}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSaveEmail} className="grid gap-4">
          <FormField label={ACCOUNT_STRINGS.emailRequiredLabel} error={errors.email?.message}>
            {(control) => <Input {...control} type="email" autoComplete="email" {...register('email')} />}
          </FormField>
          <Button type="submit" disabled={isSubmitting} className="w-full sm:w-auto sm:justify-self-end">
            {isSubmitting ? ACCOUNT_STRINGS.saving : ACCOUNT_STRINGS.emailRequiredSubmit}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
