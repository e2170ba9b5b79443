// One root for every admin query key, so the dashboard's data can be refetched or dropped together.
export const adminQueryKey = ['admin'] as const;
