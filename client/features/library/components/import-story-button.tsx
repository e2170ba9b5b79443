// 'Import a Story': picks a Taleweaver JSON file, sends it, and opens the new story. A file the
// server refuses (or one too large or not JSON, refused before sending) is named in a toast and
// nothing is created.
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { Upload } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useImportStoryMutation } from '../api/story-mutations';
import { LIBRARY_STRINGS, storyPath } from '../strings';

export function ImportStoryButton() {
  const input = useRef<HTMLInputElement>(null);
  const importStory = useImportStoryMutation();
  const navigate = useNavigate();

  const handleFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const imported = await importStory.mutateAsync(file);
      toast({ title: LIBRARY_STRINGS.successTitle, description: LIBRARY_STRINGS.imported(imported.title) });
      navigate(storyPath(imported.storyId));
    } catch (error) {
      toast({
        title: LIBRARY_STRINGS.errorTitle,
        description: errorMessage(error, LIBRARY_STRINGS.importFailed),
        variant: 'destructive',
      });
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
        accept="application/json,.json"
        className="sr-only"
        tabIndex={-1}
        aria-label={LIBRARY_STRINGS.importLabel}
        onChange={(event) => void handleFile(event.target.files?.[0])}
      />
      <Button variant="outline" onClick={() => input.current?.click()} disabled={importStory.isPending}>
        <Upload aria-hidden="true" />
        {importStory.isPending ? LIBRARY_STRINGS.importing : LIBRARY_STRINGS.importStory}
      </Button>
    </>
  );
}
