// Dashboard templates of the add-application template picker (spec 01 section 5 calls the picker a stub; issue 28 asks
// that a chosen template create a dashboard). A new application has no devices yet, so a template reads the whole
// application rather than named devices: its title, the device count, how many are online, and every device on a map;
// devices added later appear in it without editing.
import type { ConfDashboardInput } from './confDashboard.js';

export const TEMPLATE_KINDS = ['smart_city', 'factory', 'building', 'energy', 'agriculture', 'retail'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** The dashboard a template creates, titled `title`. */
export function templateDashboard(title: string): ConfDashboardInput {
  return {
    version: '2',
    type: 'normal',
    view: { decimal: 0 },
    config: { refresh: 0 },
    dashboard: {
      title: { key: 'title', cat: 'TITLE', x: 0, y: 0, w: 4, h: 1, view: { title } },
      total: {
        key: 'total',
        cat: 'SINGLE_VALUE_CARD',
        x: 0,
        y: 1,
        w: 1,
        h: 1,
        config: { refresh: 0 },
        model: { value: { query: 'TOTAL_DEVICE', queryType: 'tags', tags: [] } },
        view: { decimal: 0, type: 'CUSTOM', title: 'Total Perangkat', unit: '' },
      },
      online: {
        key: 'online',
        cat: 'SINGLE_VALUE_CARD',
        x: 1,
        y: 1,
        w: 1,
        h: 1,
        config: { refresh: 0 },
        model: { value: { query: 'APP_ONLINE', queryType: 'tags', tags: [] } },
        view: { decimal: 0, type: 'CUSTOM', title: 'Perangkat Online', unit: '' },
      },
      sites: {
        key: 'sites',
        cat: 'MAP_CARD',
        x: 0,
        y: 2,
        w: 4,
        h: 2,
        model: {
          latitude: { query: 'LATITUDE', queryType: 'none' },
          longitude: { query: 'LONGITUDE', queryType: 'none' },
          tags: [],
        },
      },
    },
  };
}
