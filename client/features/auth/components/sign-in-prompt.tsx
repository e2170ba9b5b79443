// A signed-out visitor's view of a page that lists a player's own things (Bookmarks, Your Stories):
// the page's title, what signing in gives, and 'Sign in or Register', whose dialog opens on arrival
// and leaves the visitor on the same page afterwards.
import { useState } from 'react';
import { LogIn } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { AuthDialog } from './auth-dialog';

export function SignInPrompt({ title, text, signInLabel }: { title: string; text: string; signInLabel: string }) {
  const [dialogOpen, setDialogOpen] = useState(true);
  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader>
          <CardTitle as="h1">{title}</CardTitle>
          <CardDescription className="text-base">{text}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button onClick={() => setDialogOpen(true)}>
            <LogIn aria-hidden="true" />
            {signInLabel}
          </Button>
        </CardFooter>
      </Card>
      <AuthDialog open={dialogOpen} onOpenChange={setDialogOpen} />
    </PageContainer>
  );
}
