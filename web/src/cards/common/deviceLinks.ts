// Where a card may send its reader to see a device (a map marker's "Buka perangkat"): given by the screen that shows
// the cards (the dashboard view knows the application's addresses and what the principal may open). Absent (the
// editor's preview, tests), or for a principal who may not open device screens: cards show no link.
import { createContext, useContext } from 'react';

export interface DeviceLink {
  /** the address of the device's screen, for the link's href */
  href: string;
  /** opens it inside the console (no page reload) */
  open(): void;
}

export type DeviceLinks = (deviceId: number) => DeviceLink | undefined;

export const DeviceLinksContext = createContext<DeviceLinks | null>(null);

export const useDeviceLinks = () => useContext(DeviceLinksContext);
