// The register form's CAPTCHA: the question, a reload, and the spec's 'CAPTCHA Error' toast when
// the question cannot be loaded (the box itself then reads 'Could not load CAPTCHA').
import { useCallback, useEffect } from 'react';
import { toast } from '@client/components/ui/use-toast';
import { useCaptchaQuery } from '../api/get-captcha';
import { AUTH_STRINGS } from '../strings';

export type CaptchaStatus = 'loading' | 'ready' | 'error';

export interface CaptchaState {
  question: string | null;
  status: CaptchaStatus;
  reload: () => void;
}

export function useCaptcha(): CaptchaState {
  const { data, isFetching, isError, errorUpdatedAt, refetch } = useCaptchaQuery();

  useEffect(() => {
    if (!isError) return;
    toast({
      title: AUTH_STRINGS.captchaErrorTitle,
      description: AUTH_STRINGS.captchaErrorText,
      variant: 'destructive',
    });
  }, [isError, errorUpdatedAt]);

  const reload = useCallback(() => {
    void refetch();
  }, [refetch]);

  const status: CaptchaStatus = isFetching ? 'loading' : isError || !data ? 'error' : 'ready';
  return { question: status === 'ready' && data ? data.question : null, status, reload };
}
