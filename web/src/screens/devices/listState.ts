// The device list's page and page size, kept in session storage per application (spec 03 section 2.1): default 25,
// options 25, 50, 100. A stored value that is not one of the options falls back to the default. Its filters live in
// the address (`?q=&status=&type=&tag=`): a reload, a shared link and the browser's back keep them.
import { useCallback, useState } from 'react';
import { DEVICE_PAGE_SIZES, deviceTypes } from '@sentra/contracts';

export type DeviceStatusFilter = 'on' | 'off';
export interface DeviceListFilters {
  search: string;
  status: DeviceStatusFilter[];
  /** a device type code, '' for every type */
  type: string;
  /** `prefix:value`, '' for none */
  tag: string;
}
export const NO_FILTERS: DeviceListFilters = { search: '', status: [], type: '', tag: '' };

const KNOWN_TYPES = new Set(deviceTypes.map((t) => t.deviceType));

/** The filters an address holds; what is not a filter's value (an unknown type, a tag without `:`) is left out. */
export function filtersFromSearch(params: URLSearchParams): DeviceListFilters {
  const status = (params.get('status') ?? '')
    .split(',')
    .filter((s): s is DeviceStatusFilter => s === 'on' || s === 'off');
  const type = params.get('type') ?? '';
  const tag = params.get('tag') ?? '';
  return {
    search: (params.get('q') ?? '').trim().slice(0, 64),
    status: [...new Set(status)],
    type: KNOWN_TYPES.has(type) ? type : '',
    tag: /^[^:]+:.+$/.test(tag) ? tag.slice(0, 80) : '',
  };
}

/** The address's query for the filters: only those set, so an unfiltered list keeps a clean address. */
export function filtersToSearch(f: DeviceListFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.search) out.set('q', f.search);
  if (f.status.length) out.set('status', f.status.join(','));
  if (f.type) out.set('type', f.type);
  if (f.tag) out.set('tag', f.tag);
  return out;
}

export interface Paging {
  page: number;
  size: number;
}

export const DEFAULT_PAGING: Paging = { page: 0, size: DEVICE_PAGE_SIZES[0] };
const key = (domain: string) => `sentra.devices.paging.${domain}`;

export function readPaging(domain: string, storage: Pick<Storage, 'getItem'> = sessionStorage): Paging {
  try {
    const v = JSON.parse(storage.getItem(key(domain)) ?? 'null') as Partial<Paging> | null;
    const size = (DEVICE_PAGE_SIZES as readonly number[]).includes(Number(v?.size))
      ? Number(v!.size)
      : DEFAULT_PAGING.size;
    const page = Number.isInteger(v?.page) && v!.page! >= 0 ? v!.page! : 0;
    return { page, size };
  } catch {
    return DEFAULT_PAGING;
  }
}

export function writePaging(domain: string, paging: Paging, storage: Pick<Storage, 'setItem'> = sessionStorage): void {
  try {
    storage.setItem(key(domain), JSON.stringify(paging));
  } catch {
    /* storage refused: paging lives for this page only */
  }
}

/** The list's paging, read from and written to session storage. */
export function useStoredPaging(domain: string) {
  const [paging, setState] = useState<Paging>(() => readPaging(domain));
  const setPaging = useCallback(
    (p: Paging) => {
      setState(p);
      writePaging(domain, p);
    },
    [domain],
  );
  return [paging, setPaging] as const;
}

/** The tag chips a row shows (about 6), and how many go into the "+N" overflow. */
export const VISIBLE_TAGS = 6;
export function splitTags<Tag>(tags: readonly Tag[], visible = VISIBLE_TAGS): { shown: Tag[]; rest: Tag[] } {
  return tags.length <= visible
    ? { shown: [...tags], rest: [] }
    : { shown: tags.slice(0, visible - 1), rest: tags.slice(visible - 1) };
}
