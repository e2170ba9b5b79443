// A write whose caller shows its own success and failure toasts (the generic error toast is off),
// and whose success refreshes the lists it changes: the library's and the bookmarks' mutations.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export function useRefreshingMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  refreshes: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { errorToast: false },
    onSuccess: () => Promise.all(refreshes.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
