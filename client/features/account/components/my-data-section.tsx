// The account page's 'Your Data': download everything of the player's as JSON, or delete the
// account. Deleting asks for the password in a confirmation; once done, the browser forgets the
// player (as a logout does) and goes home.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Trash2 } from 'lucide-react';
import { successSchema } from '@shared/schemas/common';
import { deleteAccountBodySchema } from '@shared/schemas/my-data';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from '@client/components/ui/password-input';
import { toast } from '@client/components/ui/use-toast';
import { apiWrite, errorMessage } from '@client/lib/api-client';
import { clearSessionUser, clearLocalUserData } from '@client/features/auth';
import { ACCOUNT_STRINGS } from '../strings';

function useDeleteAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      apiWrite('/api/user', { method: 'DELETE', body: { password }, schema: successSchema }),
    meta: { errorToast: false },
    onSuccess: () => {
      clearLocalUserData();
      clearSessionUser(queryClient);
    },
  });
}

function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteAccountMutation();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = deleteAccountBodySchema.safeParse({ password });
    if (!parsed.success) {
      setError(parsed.error.issues[0].message);
      return;
    }
    try {
      await remove.mutateAsync(parsed.data.password);
      toast({ title: ACCOUNT_STRINGS.deletedTitle, description: ACCOUNT_STRINGS.deletedText });
      navigate('/', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, ACCOUNT_STRINGS.deleteFailed));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (remove.isPending) return;
        setPassword('');
        setError(undefined);
        onOpenChange(next);
      }}
    >
      <DialogContent role="alertdialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>{ACCOUNT_STRINGS.deleteTitle}</DialogTitle>
          <DialogDescription>{ACCOUNT_STRINGS.deleteText}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          onSubmit={(event) => void handleSubmit(event)}
          className="grid gap-4"
          aria-label={ACCOUNT_STRINGS.deleteTitle}
        >
          <FormField label={ACCOUNT_STRINGS.deletePasswordLabel} error={error}>
            {(control) => (
              <PasswordInput
                {...control}
                autoComplete="current-password"
                value={password}
                disabled={remove.isPending}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setError(undefined);
                }}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
              {ACCOUNT_STRINGS.cancel}
            </Button>
            <Button type="submit" variant="destructive" disabled={remove.isPending}>
              {remove.isPending ? ACCOUNT_STRINGS.deleting : ACCOUNT_STRINGS.deleteConfirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function MyDataSection() {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">{ACCOUNT_STRINGS.downloadText}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href="/api/user/export" download>
            <Download aria-hidden="true" />
            {ACCOUNT_STRINGS.download}
          </a>
        </Button>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden="true" />
          {ACCOUNT_STRINGS.deleteAccount}
        </Button>
      </div>
      <DeleteAccountDialog open={confirming} onOpenChange={setConfirming} />
    </div>
  );
}
