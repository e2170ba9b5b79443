// One item of a player's collection (a story in the library, a bookmark): a card whose title links to
// the item, with its details beside or under it and its buttons; while edited in place, the card
// holds the edit form instead; Delete asks first. Also the Save/Cancel row of such a form. Shared by
// the library and the bookmarks: each passes its own layout, details, edit form and words.
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { BookOpen, Pencil, Trash2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { ConfirmDeleteDialog, type ConfirmDeleteDialogProps } from './confirm-delete-dialog';

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
  /** Buttons before Edit and Delete (the library's Export). */
  moreActions?: ReactNode;
  /** Editing in place: the button's words, and the form shown instead of the card (`done` closes it). */
  edit: { label: string; ariaLabel: string; form: (done: () => void) => ReactNode };
  /** Deleting after a confirmation: the button's name, and the confirmation's words and work. */
  remove: { ariaLabel: string } & Omit<ConfirmDeleteDialogProps, 'open' | 'onOpenChange'>;
}

export function CollectionCard({
  layout,
  title,
  to,
  leading,
  details,
  moreActions,
  edit,
  remove: { ariaLabel: deleteAriaLabel, ...confirmation },
}: CollectionCardProps) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <Card className={layout.card}>
      {editing ? (
        edit.form(() => setEditing(false))
      ) : (
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
          <div className={layout.actions}>
            {moreActions}
            <Button variant="outline" size="sm" onClick={() => setEditing(true)} aria-label={edit.ariaLabel}>
              <Pencil aria-hidden="true" />
              {edit.label}
            </Button>
            <Button variant="outline" size="sm" onClick={() => setConfirming(true)} aria-label={deleteAriaLabel}>
              <Trash2 aria-hidden="true" />
              {confirmation.strings.delete}
            </Button>
          </div>
        </article>
      )}
      {/* Always mounted: it animates in and out. */}
      <ConfirmDeleteDialog open={confirming} onOpenChange={setConfirming} {...confirmation} />
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
