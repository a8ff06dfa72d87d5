// The device list's page and page size, kept in session storage per application (spec 03 section 2.1): default 25,
// options 25, 50, 100. A stored value that is not one of the options falls back to the default.
import { DEVICE_PAGE_SIZES } from '@sentra/contracts';

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

/** The tag chips a row shows (about 6), and how many go into the "+N" overflow. */
export const VISIBLE_TAGS = 6;
export function splitTags<Tag>(tags: readonly Tag[], visible = VISIBLE_TAGS): { shown: Tag[]; rest: Tag[] } {
  return tags.length <= visible
    ? { shown: [...tags], rest: [] }
    : { shown: tags.slice(0, visible - 1), rest: tags.slice(visible - 1) };
}
