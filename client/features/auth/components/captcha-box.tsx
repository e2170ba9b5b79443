// The CAPTCHA challenge: the question (or why there is none) and a button for a new question.
import { RefreshCw } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import type { CaptchaState } from '../hooks/use-captcha';
import { AUTH_STRINGS } from '../strings';

export function CaptchaBox({ captcha, questionId }: { captcha: CaptchaState; questionId: string }) {
  const text =
    captcha.status === 'loading'
      ? AUTH_STRINGS.captchaLoading
      : captcha.status === 'error'
        ? AUTH_STRINGS.captchaFailed
        : captcha.question;
  return (
    <div className="flex items-center justify-between gap-3 rounded-lg border border-dashed bg-muted/60 px-3 py-2">
      <div className="grid gap-0.5">
        <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {AUTH_STRINGS.captchaLabel}
        </span>
        <p
          id={questionId}
          aria-live="polite"
          className={captcha.status === 'ready' ? 'font-serif text-lg' : 'text-sm text-muted-foreground'}
        >
          {text}
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        onClick={captcha.reload}
        disabled={captcha.status === 'loading'}
        aria-label={AUTH_STRINGS.captchaReload}
      >
        <RefreshCw
          className={captcha.status === 'loading' ? 'animate-spin motion-reduce:animate-none' : undefined}
          aria-hidden="true"
        />
      </Button>
    </div>
  );
}
