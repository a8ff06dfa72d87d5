// A map marker's popup: the device's name, online or offline, the card's value and status with the card's unit and
// decimals, its position, when it last reported, and a link to the device's screen. Built as DOM nodes whose texts
// are set as text (a device's name and values are device input, never markup; Leaflet would write a string as HTML),
// and only when the popup opens, so a fleet of hundreds restyled on every push builds none.
import { T } from '@sentra/contracts';
import { formatDate } from '../common/dates.js';
import type { DeviceLink } from '../common/deviceLinks.js';
import type { MapMarker } from './markers.js';

export interface PopupFields {
  /** the card's value as the card prints it (unit, decimals), undefined when the card has no value query */
  value?: string;
  status?: string;
  link?: DeviceLink;
  locale?: string;
}

function line(parent: HTMLElement, text: string, testId?: string, strong = false): HTMLElement {
  const el = document.createElement(strong ? 'strong' : 'div');
  el.textContent = text;
  if (testId) el.dataset.testid = testId;
  parent.append(el);
  return el;
}

const coordinate = (n: number, locale?: string) =>
  n.toLocaleString(locale ?? 'id-ID', { minimumFractionDigits: 5, maximumFractionDigits: 5 });

export function markerPopup(marker: MapMarker, fields: PopupFields): HTMLElement {
  const box = document.createElement('div');
  box.className = 'sentra-map-popup';
  box.dataset.testid = 'map-popup';
  box.style.cssText = 'display:grid;gap:2px;min-width:160px;font:13px/1.4 Roboto,Arial,sans-serif';
  line(box, marker.label, 'map-popup-label', true).style.fontSize = '14px';
  if (marker.online !== undefined) {
    const state = line(box, marker.online ? T.cardViews.online : T.cardViews.offline, 'map-popup-online');
    state.style.color = marker.online ? '#2e7d32' : '#757575';
    state.style.fontWeight = '500';
  }
  if (fields.value !== undefined) line(box, `${T.cardViews.columns.value}: ${fields.value}`, 'map-popup-value');
  if (fields.status !== undefined) line(box, `${T.cardViews.columns.status}: ${fields.status}`, 'map-popup-status');
  line(
    box,
    `${T.cardViews.mapLocation}: ${coordinate(marker.lat, fields.locale)}, ${coordinate(marker.lon, fields.locale)}`,
    'map-popup-location',
  ).style.color = '#616161';
  if (typeof marker.time === 'number')
    line(
      box,
      T.cardViews.updatedAt(formatDate(marker.time, 'HH:mm:ss, DD MMM YY', fields.locale)),
      'map-popup-time',
    ).style.color = '#616161';
  if (fields.link) {
    const a = document.createElement('a');
    a.href = fields.link.href;
    a.textContent = T.cardViews.mapOpenDevice;
    a.dataset.testid = 'map-popup-device';
    a.style.marginTop = '4px';
    const link = fields.link;
    a.addEventListener('click', (e) => {
      // a plain click stays in the console; a modified click (new tab) is the browser's
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      link.open();
    });
    box.append(a);
  }
  return box;
}
