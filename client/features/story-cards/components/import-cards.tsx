// 'Import': picks a lorebook (.json, .lorebook) or a PNG character card and sends its bytes; then
// says how many cards came in, and lists the entries left out with their reasons (folded away when
// there are many; past the first hundred the server only counts them, and so does the list). A
// refused file is named in the panel, and nothing is imported.
import { useRef } from 'react';
import { Upload, X } from 'lucide-react';
import type { StoryCardsImportResponse } from '@shared/schemas/story-cards';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { STORY_CARDS_STRINGS as S } from '../strings';

/** More ignored entries than this fold away behind a 'Show' summary. */
const IGNORED_SHOWN_OPEN = 5;

export function ImportCardsButton({ pending, onFile }: { pending: boolean; onFile: (file: File) => Promise<void> }) {
  const input = useRef<HTMLInputElement>(null);
  const handle = async (file: File | undefined) => {
    if (!file) return;
    try {
      await onFile(file);
    } finally {
      // The same file can be chosen again after a fix.
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,.lorebook,.png,application/json,image/png"
        className="sr-only"
        tabIndex={-1}
        aria-label={S.importLabel}
        onChange={(event) => void handle(event.target.files?.[0])}
      />
      <Button variant="outline" size="sm" onClick={() => input.current?.click()} disabled={pending}>
        <Upload aria-hidden="true" />
        {pending ? S.importing : S.import}
      </Button>
    </>
  );
}

export type ImportOutcome = { kind: 'done'; result: StoryCardsImportResponse } | { kind: 'failed'; message: string };

export function ImportResult({ outcome, onDismiss }: { outcome: ImportOutcome; onDismiss: () => void }) {
  const dismiss = (
    <Button variant="ghost" size="icon" className="size-7 shrink-0" aria-label={S.dismiss} onClick={onDismiss}>
      <X aria-hidden="true" />
    </Button>
  );
  if (outcome.kind === 'failed') {
    return (
      <Alert variant="destructive">
        <AlertDescription className="flex items-start justify-between gap-2">
          <span>{outcome.message}</span>
          {dismiss}
        </AlertDescription>
      </Alert>
    );
  }
  const { imported, ignored, ignoredCount } = outcome.result;
  const unlisted = ignoredCount - ignored.length;
  const list = (
    <>
      <ul className="mt-1 grid list-disc gap-0.5 pl-5" aria-label={S.ignoredLabel}>
        {ignored.map((entry, index) => (
          <li key={index} className="break-words">
            {S.ignoredEntry(entry.entry, entry.reason)}
          </li>
        ))}
      </ul>
      {unlisted > 0 ? <p className="mt-1 pl-5">{S.ignoredMore(unlisted)}</p> : null}
    </>
  );
  return (
    <Alert>
      <AlertDescription className="grid gap-1">
        <div className="flex items-start justify-between gap-2">
          <p className="font-medium">{S.imported(imported)}</p>
          {dismiss}
        </div>
        {ignoredCount === 0 ? null : ignoredCount <= IGNORED_SHOWN_OPEN ? (
          <div>
            <p>{S.ignoredCount(ignoredCount)}</p>
            {list}
          </div>
        ) : (
          <details>
            <summary className="cursor-pointer rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
              {S.showIgnored(ignoredCount)}
            </summary>
            {list}
          </details>
        )}
      </AlertDescription>
    </Alert>
  );
}
