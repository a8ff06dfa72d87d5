// UPLOAD_CSV_CARD: a CSV of configurations sent to one chosen device.
import { T } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { SEND_BUTTON, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const uploadCard = defineCard('UPLOAD_CSV_CARD', {
  label: 'Upload CSV',
  defaults: { title: T.dashboards.commands.inputTitle, button_label: T.dashboards.commands.send },
  size: { w: 1, h: 2 },
  live: false,
  fields: [title(), SEND_BUTTON],
  view: lazyView('UploadView'),
});
