// Sets the document title per page ("Account Settings · Taleweaver") so tabs, history and screen
// readers announce where the user is after a client-side navigation.
import { useEffect } from 'react';
import { PRODUCT_NAME } from '@shared/constants';

export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
