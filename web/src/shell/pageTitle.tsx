// The top bar's title from inside a screen: a screen that shows one named thing (a dashboard) names it there, instead
// of the route's generic title ("Dashboard" on every dashboard, issue 28). The name is rendered as text.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

type SetTitle = (title: string | undefined) => void;

const PageTitleContext = createContext<SetTitle | undefined>(undefined);

/** The layout's title state: the screen's name for itself while it is shown, else `fallback` (the route's title). */
export function usePageTitleState(fallback: string): [string, SetTitle] {
  const [named, setNamed] = useState<string | undefined>(undefined);
  return [named ?? fallback, setNamed];
}

export function PageTitleProvider({ setTitle, children }: { setTitle: SetTitle; children: ReactNode }) {
  return <PageTitleContext.Provider value={setTitle}>{children}</PageTitleContext.Provider>;
}

/** Shows `title` in the top bar while the calling screen is mounted (no layout around it: nothing happens). */
export function usePageTitle(title: string | undefined): void {
  const setTitle = useContext(PageTitleContext);
  useEffect(() => {
    if (!setTitle || !title) return;
    setTitle(title);
    return () => setTitle(undefined);
  }, [setTitle, title]);
}
