// What the signed-in principal may reach inside an application, for screens that offer links and actions: a tenant
// reaches every route, an application user the routes their role grants. Screens hide what the server would refuse.
import { createContext, useContext, type ReactNode } from 'react';

/** null = everything (a tenant) */
const GrantedKeys = createContext<ReadonlySet<string> | null>(null);

export function GrantsProvider({ keys, children }: { keys: ReadonlySet<string> | null; children: ReactNode }) {
  return <GrantedKeys.Provider value={keys}>{children}</GrantedKeys.Provider>;
}

/** true when the route key (as registered, e.g. `_device_edit_info_/{id}`) is reachable by the principal */
export function useCanReach(): (routeKey: string) => boolean {
  const keys = useContext(GrantedKeys);
  return (routeKey) => keys === null || keys.has(routeKey);
}
