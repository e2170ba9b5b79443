// What an empty Story Cards panel shows: a card that is not one, labelled 'Example', with no controls,
// saying what a card is for (it enters the narrator's prompt when one of its keys comes up).
import { useId } from 'react';
import { Badge } from '@client/components/ui/badge';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { CardBody } from './story-card-item';

export function ExampleCard() {
  const id = useId();
  return (
    <figure
      aria-labelledby={`${id}-label`}
      aria-describedby={`${id}-note`}
      className="grid gap-3 rounded-lg border-2 border-dashed bg-muted/20 p-3"
    >
      <span id={`${id}-label`} className="sr-only">
        {S.exampleLabel}
      </span>
      <CardBody
        headingId={`${id}-name`}
        name={S.exampleName}
        keys={[...S.exampleKeys]}
        content={S.exampleContent}
        badges={<Badge className="border-gold/60 bg-gold/15 text-foreground uppercase">{S.exampleBadge}</Badge>}
      />
      <figcaption id={`${id}-note`} className="text-sm">
        {S.exampleNote}
      </figcaption>
    </figure>
  );
}
