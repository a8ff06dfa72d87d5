// EMBEDDED_DASHBOARD: a page (address) or another dashboard shown in a frame; it reads no live data.
import { lazyView } from '../common/lazyView.js';
import { title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const embeddedCard = defineCard('EMBEDDED_DASHBOARD', {
  label: 'Embedded dashboard',
  size: { w: 2, h: 4 },
  live: false,
  fields: [title()],
  view: lazyView('EmbeddedView'),
});
