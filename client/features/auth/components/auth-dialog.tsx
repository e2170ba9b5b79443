// 'Sign in or Register' in a dialog, for pages that keep the user where they are (bookmarks now,
// the story page later): Login and Register tabs reuse the auth forms, then the caller continues.
import { useState } from 'react';
import type { User } from '@shared/schemas/user';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { AUTH_STRINGS } from '../strings';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

export interface AuthDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAuthenticated?: (user: User) => void;
  title?: string;
  description?: string;
}

export function AuthDialog({
  open,
  onOpenChange,
  onAuthenticated,
  title = AUTH_STRINGS.dialogTitle,
  description = AUTH_STRINGS.dialogDescription,
}: AuthDialogProps) {
  const [tab, setTab] = useState('login');
  const handleSuccess = (user: User) => {
    onOpenChange(false);
    onAuthenticated?.(user);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="login">{AUTH_STRINGS.dialogLoginTab}</TabsTrigger>
            <TabsTrigger value="register">{AUTH_STRINGS.dialogRegisterTab}</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm onSuccess={handleSuccess} variant="dialog" />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm onSuccess={handleSuccess} variant="dialog" />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
