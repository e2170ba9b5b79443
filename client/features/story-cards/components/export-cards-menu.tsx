// 'Export': the story's cards as a file, in Taleweaver's own format (to import again) or as a
// SillyTavern lorebook; plain download links, as the library's story export.
import { Download } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { cardsExportPath } from '../api/get-story-cards';
import { STORY_CARDS_STRINGS as S } from '../strings';

export function ExportCardsMenu({ storyId, disabled }: { storyId: number; disabled: boolean }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={S.exportLabel} disabled={disabled}>
          <Download aria-hidden="true" />
          {S.export}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem asChild>
          <a href={cardsExportPath(storyId, 'taleweaver')} download>
            {S.exportTaleweaver}
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={cardsExportPath(storyId, 'sillytavern')} download>
            {S.exportSillyTavern}
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
