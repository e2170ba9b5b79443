// 'What it cost', under the blocks of 'What the narrator saw': the reply's own calls
// (tokens sent and the share the prompt cache served, tokens written, the server's dollar figure,
// the loop guard's second call), then 'Afterwards': the paid work the reply set off, one line each
// (its memory fold, its scene picture, the picture's style sheet), as the server's ledger has it.
import { useId } from 'react';
import type { LaterWork, NarratorContext } from '@shared/schemas/story-cards';
import { ReplyCostList } from '@client/components/reply-cost-list';
import { formatSmallCost } from '@client/lib/reply-cost';
import { STORY_CARDS_STRINGS as S } from '../strings';

function laterWorkText(work: LaterWork): string {
  // A picture is priced by its image tokens; the fold and the style sheet are text calls.
  const tokens =
    work.kind === 'image'
      ? S.laterWorkImageTokens(work.imageTokens)
      : S.laterWorkTextTokens(work.inputTokens, work.outputTokens);
  return S.laterWorkLine(S.laterWorkKinds[work.kind], tokens, formatSmallCost(work.costUsd));
}

export function ContextCost({ usage, laterWork = [] }: Pick<NarratorContext, 'usage' | 'laterWork'>) {
  const titleId = useId();
  // Records written before costs were kept have neither: nothing to say then.
  if (!usage && laterWork.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="grid gap-2 rounded-md border p-3 text-sm" data-context-cost>
      <h3 id={titleId} className="font-medium">
        {S.costTitle}
      </h3>
      {usage ? <ReplyCostList usage={usage} className="gap-0.5" /> : null}
      {laterWork.length > 0 ? (
        <>
          <h4 className="text-xs font-medium text-muted-foreground">{S.laterWorkTitle}</h4>
          <ul className="grid gap-0.5 text-xs tabular-nums" aria-label={S.laterWorkTitle}>
            {laterWork.map((work, index) => (
              <li key={`${work.kind}-${work.createdAt}-${index}`}>{laterWorkText(work)}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
