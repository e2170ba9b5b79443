// One item of a player's collection (a story in the library, a bookmark): a card whose title links to
// the item, with its details beside or under it and its buttons; while edited in place, the card
// holds the edit form instead. Also the Save/Cancel row of such a form. Shared by the library and the
// bookmarks: each passes its own layout, details, buttons and words.
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { BookOpen } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';

export interface CollectionCardLayout {
  card: string;
  article: string;
  body: string;
  actions: string;
}

export interface CollectionCardProps {
  layout: CollectionCardLayout;
  title: string;
  to: string;
  /** Shown before the title (the library's picture). */
  leading?: ReactNode;
  /** Under the title (description, dates). */
  details: ReactNode;
  /** The buttons (export, edit or rename, delete). */
  actions: ReactNode;
  /** Set while the item is edited in place: the form shown instead. */
  editForm: ReactNode | null;
  /** The delete confirmation, always mounted (it animates in and out). */
  deleteDialog: ReactNode;
}

export function CollectionCard({
  layout,
  title,
  to,
  leading,
  details,
  actions,
  editForm,
  deleteDialog,
}: CollectionCardProps) {
  const titleId = useId();
  return (
    <Card className={layout.card}>
      {editForm ?? (
        <article aria-labelledby={titleId} className={layout.article}>
          {leading}
          <div className={layout.body}>
            <h2 id={titleId} className="text-lg font-semibold break-words">
              <Link
                to={to}
                className="inline-flex items-center gap-2 underline-offset-4 hover:underline focus-visible:underline"
              >
                <BookOpen className="size-4 shrink-0 text-gold" aria-hidden="true" />
                {title}
              </Link>
            </h2>
            {details}
          </div>
          <div className={layout.actions}>{actions}</div>
        </article>
      )}
      {deleteDialog}
    </Card>
  );
}

/** Cancel and Save under an edit form; both wait while the change is on its way. */
export function EditFormActions({
  pending,
  onCancel,
  strings,
}: {
  pending: boolean;
  onCancel: () => void;
  strings: { cancel: string; save: string; saving: string };
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="outline" onClick={onCancel} disabled={pending}>
        {strings.cancel}
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? strings.saving : strings.save}
      </Button>
    </div>
  );
}
