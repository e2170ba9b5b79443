// Catches a page that throws while rendering, or whose code chunk fails to load (typically after a
// deploy replaced the files an open tab expected), and shows the error page inside the layout.
// React offers error boundaries only as class components. A new `resetKey` (the path) clears the
// error, so navigating away from a broken page works without a reload.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RouteErrorPage } from './route-error-page';

interface Props {
  resetKey: string;
  children: ReactNode;
}

interface State {
  hasError: boolean;
  /** The key the error belongs to; a different key means the user has moved on. */
  errorKey: string;
}

export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { hasError: false, errorKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.errorKey) return null;
    return { hasError: false, errorKey: props.resetKey };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  render(): ReactNode {
    return this.state.hasError ? <RouteErrorPage /> : this.props.children;
  }
}
