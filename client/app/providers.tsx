// App-wide providers: data (TanStack Query with the spec's rules), theme and the single toast slot.
// Generic read and write failures surface as a destructive 'Error' toast. Tooltips carry their own
// provider (see components/ui/tooltip.tsx), which keeps positioning code off the first load.
import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ThemeProvider } from '@client/components/theme-provider';
import { Toaster } from '@client/components/ui/toaster';
import { toast } from '@client/components/ui/use-toast';
import { createQueryClient } from '@client/lib/query-client';
import { APP_STRINGS } from './strings';

function reportError(message: string): void {
  toast({ title: APP_STRINGS.errorToastTitle, description: message, variant: 'destructive' });
}

export function createAppQueryClient(): QueryClient {
  return createQueryClient(reportError);
}

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createAppQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        {children}
        <Toaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
