// /preferences: three selects for content rating, narrative style and
// language style, and the narrator of new stories when the operator offers several. Visitors see the
// values with a login hint and cannot change them. Each change is saved at once (only that field is
// sent) with the spec's success or error toast.
import { Link } from 'react-router';
import { PageContainer } from '@client/components/page';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { FormField } from '@client/components/ui/form-field';
import { Select } from '@client/components/ui/select';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { usePageTitle } from '@client/lib/use-page-title';
import { DEFAULT_PREFERENCES, PREFERENCES_MESSAGES } from '@shared/schemas/preferences';
import { useSession } from '@client/features/auth';
import { useNarrators } from '@client/features/narrators';
import { buildAuthPath } from '@client/lib/auth-redirect';
import { usePreferences, useUpdatePreferencesMutation, type PlayerPreferences } from '../api/preferences';
import { PREFERENCE_FIELDS, PREFERENCES_STRINGS } from '../strings';

/** The page's three selects; the image-generation flag is switched on the story page. */
const KEYS = ['contentRating', 'narrativeStyle', 'languageStyle'] as const;
type SelectKey = (typeof KEYS)[number];

export function PreferencesPage() {
  usePageTitle(PREFERENCES_STRINGS.pageTitle);
  const { user, isLoading: sessionLoading, isLoggedIn } = useSession();
  const userId = user?.id ?? null;
  const preferences = usePreferences(userId, !sessionLoading);
  const update = useUpdatePreferencesMutation(userId);
  const values: PlayerPreferences = preferences.data ?? DEFAULT_PREFERENCES;
  const disabled = !isLoggedIn || preferences.isPending || update.isPending;
  const narrators = useNarrators().data?.narrators ?? [];
  const narrator = narrators.find((n) => n.id === values.narrator) ?? narrators.find((n) => n.default);

  const handleChange = async (key: SelectKey | 'narrator', value: string) => {
    try {
      await update.mutateAsync({ [key]: value });
      toast({ title: PREFERENCES_STRINGS.successTitle, description: PREFERENCES_STRINGS.saved });
    } catch (error) {
      const message = errorMessage(error, PREFERENCES_STRINGS.saveFailed);
      if (message === PREFERENCES_MESSAGES.notAuthenticated) {
        toast({
          title: PREFERENCES_STRINGS.authTitle,
          description: PREFERENCES_STRINGS.authText,
          variant: 'destructive',
        });
      } else {
        toast({ title: PREFERENCES_STRINGS.errorTitle, description: message, variant: 'destructive' });
      }
    }
  };

  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader>
          <CardTitle as="h1">{PREFERENCES_STRINGS.pageTitle}</CardTitle>
          <CardDescription className="text-base">{PREFERENCES_STRINGS.pageText}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {sessionLoading || isLoggedIn ? null : (
            <p className="rounded-lg border border-dashed bg-muted/60 px-4 py-3 text-sm">
              {PREFERENCES_STRINGS.loggedOutHint}{' '}
              <Link
                to={buildAuthPath('/preferences')}
                className="font-medium text-primary underline underline-offset-4"
              >
                {PREFERENCES_STRINGS.loginLink}
              </Link>
              .
            </p>
          )}
          {KEYS.map((key) => {
            const field = PREFERENCE_FIELDS[key];
            const current = field.options.find((option) => option.value === values[key]);
            return (
              <FormField key={key} label={field.label} hint={current?.hint}>
                {(control) => (
                  <Select
                    {...control}
                    value={values[key]}
                    disabled={disabled}
                    onChange={(event) => void handleChange(key, event.target.value)}
                  >
                    {field.options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
            );
          })}
          {/* With one narrator there is nothing to choose. */}
          {narrators.length > 1 && narrator ? (
            <FormField
              label={PREFERENCES_STRINGS.narratorLabel}
              hint={PREFERENCES_STRINGS.narratorHint(narrator.description)}
            >
              {(control) => (
                <Select
                  {...control}
                  value={narrator.id}
                  disabled={disabled}
                  onChange={(event) => void handleChange('narrator', event.target.value)}
                >
                  {narrators.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
          ) : null}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
