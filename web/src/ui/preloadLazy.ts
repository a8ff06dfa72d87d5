// Starts loading a React.lazy component's chunk before it renders, and tells when it is there. React.lazy has no
// public preload, so this initialises the lazy component exactly as rendering it would (its `_init` on its
// `_payload`: a pending load throws its promise, caught here). Where those fields are missing (another React) it does
// nothing and the chunk loads on first render as before. Why it matters: a lazy component that suspends shows its
// fallback, and React then holds back every Suspense reveal for 300 ms after that fallback (its retry throttle).
import { useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';

interface LazyInternals {
  _init?: (payload: unknown) => unknown;
  _payload?: unknown;
}

/** Resolves once the chunk is loaded (or failed: rendering reports that); at once for a non-lazy component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function preloadLazy(component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>): Promise<void> {
  const lazy = component as unknown as LazyInternals;
  if (typeof lazy._init !== 'function') return Promise.resolve();
  try {
    lazy._init(lazy._payload);
    return Promise.resolve();
  } catch (thrown) {
    // the load's promise (still loading) or its error
    const pending =
      thrown && typeof (thrown as PromiseLike<unknown>).then === 'function'
        ? (thrown as PromiseLike<unknown>)
        : undefined;
    return pending
      ? Promise.resolve(pending).then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  }
}

/** Whether rendering the component would not suspend: its chunk loaded (or failed, which rendering reports). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isLazySettled(component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>): boolean {
  const lazy = component as unknown as LazyInternals;
  if (typeof lazy._init !== 'function') return true;
  try {
    lazy._init(lazy._payload);
    return true;
  } catch (thrown) {
    return !(thrown && typeof (thrown as PromiseLike<unknown>).then === 'function');
  }
}

/**
 * True once the lazy component's chunk is there; meanwhile the caller shows its own placeholder instead of letting
 * the component suspend (a Suspense fallback committed holds back every reveal for 300 ms).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useLazyReady(component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>): boolean {
  const [ready, setReady] = useState(() => isLazySettled(component));
  useEffect(() => {
    if (ready) return;
    let live = true;
    void preloadLazy(component).then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [component, ready]);
  return ready;
}
