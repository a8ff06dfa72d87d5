// DROPDOWN_SELECTOR: sets a dashboard variable; cards listing it in affected_by are re-queried.
import { lazyView } from '../common/lazyView.js';
import { title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const dropdownCard = defineCard('DROPDOWN_SELECTOR', {
  label: 'Dropdown selector',
  size: { w: 2, h: 1 },
  live: false,
  chrome: 'bare',
  fields: [title()],
  view: lazyView('DropdownView'),
});
