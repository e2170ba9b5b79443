// 'What the narrator saw' for one reply: a bar of how full the narrator's window was (the prompt's
// tokens of the window, the cards' share marked), the same in words with the cards' and the memory's
// share (the summary, the story bible's facts and the passages recalled from the memory bank), then every block in the order
// sent (kind, what, tokens, Sent / Partly sent / Not sent with an icon and words, and why), and
// below them what the reply cost and the paid work it set off. A reply from before such
// records were kept shows the server's message; other failures say so too.
import { CircleCheck, CircleDashed, CircleX } from 'lucide-react';
import type { ContextBlock, ContextInclusion, NarratorContext } from '@shared/schemas/story-cards';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { Spinner } from '@client/components/ui/spinner';
import { Table, TableBody, TableCell, TableFrame, TableHead, TableHeader, TableRow } from '@client/components/ui/table';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { cn } from '@client/lib/utils';
import { useNarratorContext, type NarratorContextTarget } from '../api/get-narrator-context';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { returnFocusTo } from '@client/lib/return-focus';
import { ContextCost } from './context-cost';

/** The tokens of the blocks of these kinds that were sent, whole or in part. */
function tokensSent(blocks: ContextBlock[], kinds: ContextBlock['kind'][]): number {
  return blocks
    .filter((block) => kinds.includes(block.kind) && block.included !== 'dropped')
    .reduce((sum, block) => sum + block.tokens, 0);
}

const INCLUSION_ICONS = { full: CircleCheck, partial: CircleDashed, dropped: CircleX } as const;

function Inclusion({ included }: { included: ContextInclusion }) {
  const Icon = INCLUSION_ICONS[included];
  return (
    <span className={cn('inline-flex items-center gap-1.5 whitespace-nowrap', included === 'full' && 'text-primary')}>
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {S.inclusion[included]}
    </span>
  );
}

function WindowBar({ context }: { context: NarratorContext }) {
  const { promptTokens, windowTokens, cardBudgetTokens, outputTokens } = context;
  const share = (tokens: number) => (windowTokens > 0 ? Math.min(100, (tokens / windowTokens) * 100) : 0);
  const windowText = S.windowText(promptTokens, windowTokens);
  return (
    <div className="grid gap-1.5">
      <div className="relative py-1">
        <Progress
          value={promptTokens}
          max={Math.max(windowTokens, 1)}
          aria-label={S.windowLabel}
          getValueLabel={() => windowText}
          className="h-3"
        />
        <span
          aria-hidden="true"
          data-card-budget-mark
          className="absolute inset-y-0 w-0 border-l-2 border-dashed border-foreground/80"
          style={{ left: `${share(cardBudgetTokens)}%` }}
        />
      </div>
      {context.narrator ? <p className="text-sm">{S.writtenBy(context.narrator.label)}</p> : null}
      <p className="text-sm font-medium tabular-nums">{windowText}</p>
      <p className="text-xs text-muted-foreground tabular-nums">
        {S.cardsText(tokensSent(context.blocks, ['card']), cardBudgetTokens)} · {S.replyText(outputTokens)}
      </p>
      <p className="text-xs text-muted-foreground tabular-nums">
        {S.memoryText(tokensSent(context.blocks, ['memory', 'passage', 'fact']), windowTokens)}
        {context.recallBudgetTokens !== undefined &&
          ` · ${S.recalledText(tokensSent(context.blocks, ['passage', 'fact']), context.recallBudgetTokens)}`}
      </p>
      <p className="text-xs text-muted-foreground">{S.budgetMark}</p>
      {context.loopGuard ? (
        <div className="mt-1 grid gap-0.5 rounded-md border border-dashed p-2 text-xs" data-loop-guard>
          <p className="font-medium">{S.loopGuardTitle}</p>
          <p>{S.loopGuardOutcome(context.loopGuard.outcome, context.loopGuard.retried)}</p>
          <ul className="list-disc pl-4 text-muted-foreground">
            {context.loopGuard.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function BlocksTable({ blocks }: { blocks: ContextBlock[] }) {
  if (blocks.length === 0) return <p className="text-sm text-muted-foreground">{S.noBlocks}</p>;
  return (
    <TableFrame label={S.blocksLabel}>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{S.kindHeader}</TableHead>
            <TableHead>{S.titleHeader}</TableHead>
            <TableHead numeric>{S.tokensHeader}</TableHead>
            <TableHead>{S.stateHeader}</TableHead>
            <TableHead>{S.reasonHeader}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {blocks.map((block, index) => (
            <TableRow
              key={index}
              data-included={block.included}
              className={cn(block.included === 'dropped' && 'text-muted-foreground')}
            >
              <TableCell className="whitespace-nowrap">{S.kinds[block.kind]}</TableCell>
              <TableCell className="whitespace-normal break-words">{block.title}</TableCell>
              <TableCell numeric>{block.tokens.toLocaleString('en-US')}</TableCell>
              <TableCell>
                <Inclusion included={block.included} />
              </TableCell>
              <TableCell className="whitespace-normal break-words text-xs">{block.reason}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}

export interface NarratorContextViewProps {
  storyId: number;
  target: NarratorContextTarget;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (the button that opened it). */
  returnFocus: HTMLElement | null;
}

export function NarratorContextView({ storyId, target, open, onOpenChange, returnFocus }: NarratorContextViewProps) {
  const context = useNarratorContext(storyId, target, open);
  const missing = isApiRequestError(context.error) && context.error.status === 404;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl content-start" onCloseAutoFocus={returnFocusTo(returnFocus)}>
        <DialogHeader>
          <DialogTitle>{S.contextTitle}</DialogTitle>
          <DialogDescription>
            {target.version === undefined ? S.contextDescription : S.contextVersionDescription(target.version)}
          </DialogDescription>
        </DialogHeader>
        {context.isError ? (
          <Alert variant={missing ? 'default' : 'destructive'}>
            <AlertDescription>{errorMessage(context.error, S.contextFailed)}</AlertDescription>
          </Alert>
        ) : context.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label={S.contextLoading} />
          </div>
        ) : (
          <div className="grid gap-4">
            <WindowBar context={context.data} />
            <BlocksTable blocks={context.data.blocks} />
            <ContextCost usage={context.data.usage} laterWork={context.data.laterWork} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
