// DOWNLOAD_DATA_CARD: the card's data as CSV; fixed at 1×2 (spec 02 section 5).
import { T } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { SEND_BUTTON, field, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const downloadCard = defineCard('DOWNLOAD_DATA_CARD', {
  label: 'Download data',
  defaults: { title: T.dashboards.commands.buttonTitle, button_label: T.dashboards.commands.send },
  live: false,
  fields: [title(), field('pict', 'icon'), SEND_BUTTON],
  view: lazyView('DownloadView'),
});
