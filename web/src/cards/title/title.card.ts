// TITLE: a one-row heading (default text 'Title'); its optional query reads a device fact.
import { T } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const titleCard = defineCard('TITLE', {
  label: 'Title',
  defaults: { title: T.dashboards.component.titleDefault },
  size: { w: 4, h: 1 },
  chrome: 'bare',
  fields: [title()],
  view: lazyView('TitleView'),
});
