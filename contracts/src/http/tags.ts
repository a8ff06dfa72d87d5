// Tag categories and their options (spec 03 sections 2.8, 3 "Tag category", 5, 8): the calls and the rules a tag
// value must follow, shared by the category form, the device tag screens and the server.
import { z } from 'zod';
import type { SysNav } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall, NoInput } from './define.js';
import { id } from '../models/fields.js';

/** Category types (spec 03 section 9): 1 single selection, 2 other single (free value), 3 single checkbox, 4 multi. */
export const TagType = { SELECTION: 1, VALUE: 2, CHECKBOX: 3, MULTI: 4 } as const;
export const TAG_TYPE_TEXT: Record<number, string> = {
  1: 'Single Selection',
  2: 'Single Value',
  3: 'Single Checkbox',
  4: 'Multi',
};
export const TAG_LABEL_MAX = 32;
export const TAG_KEY_MAX = 32;
export const TAG_TEXT_MAX = 16;
export const TAGS_PER_CATEGORY = 3;
export const TAG_PAGE_SIZES = [5, 10, 25] as const;

/** Tag calls: reading is part of looking at devices, writing is device management. */
export const TAG_READ: { navs: readonly SysNav[] } = { navs: ['_device_manage_', '_device_list_'] };
export const TAG_WRITE: { navs: readonly SysNav[] } = { navs: ['_device_manage_'] };

export const TagCode = {
  /** the option is already registered on the category */
  OPTION_DUPLICATE: -4,
  /** the category's type takes no options */
  OPTION_NOT_ALLOWED: -5,
} as const;

/** A key (category prefix, option name_lc): no uppercase, no spaces. */
const key = (upper: string, space: string) =>
  z
    .string()
    .max(TAG_KEY_MAX, T.common.max(TAG_KEY_MAX))
    .refine((s) => s === s.toLowerCase(), upper)
    .refine((s) => !/\s/.test(s), space);
export const tagKey = key(T.tags.keyNoUpper, T.tags.keyNoSpace);
export const tagOptionKey = key(T.tags.optionKeyNoUpper, T.tags.optionKeyNoSpace);

/** The key derived from a label when none is given: lowercased, spaces replaced by underscores. */
export const keyFromLabel = (label: string) => label.trim().toLowerCase().replace(/\s+/g, '_');

/** A multi-value tag (type 4): lowercase letter first, then lowercase letters, digits, underscore or space, ≤ 16. */
export const multiTagValue = z
  .string()
  .min(1, T.common.required)
  .refine((s) => !/^[0-9]/.test(s), T.tags.startsWithDigit)
  .refine((s) => s.length <= TAG_TEXT_MAX, T.tags.maxChars)
  .refine((s) => s === s.toLowerCase(), T.tags.noCapitals)
  .refine((s) => /^[a-z][a-z0-9_ ]*$/.test(s), T.tags.hint);

const label = z
  .string({ error: T.common.required })
  .trim()
  .min(1, T.common.required)
  .max(TAG_LABEL_MAX, T.common.max(TAG_LABEL_MAX));

/** the category an option belongs to, by its key */
const optionCategory = z.string({ error: T.common.required }).min(1, T.common.required).max(TAG_KEY_MAX);

export const TagDefinition = z.object({ name: z.string(), name_lc: z.string(), prefix: z.string() });
export const TagCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  category: z.number().int(),
  category_text: z.string(),
  definitions: z.array(TagDefinition),
});
export type TagCategory = z.infer<typeof TagCategory>;

export const tagsContract = {
  all: defineCall({
    method: 'GET',
    path: '/service/web/tag/category/get/all',
    summary: 'Every tag category of the application with its options (for the device tag screens)',
    audience: 'member',
    access: TAG_READ,
    input: NoInput,
    output: z.object({ categories: z.array(TagCategory) }),
  }),
  list: defineCall({
    method: 'GET',
    path: '/service/web/tag/category/get',
    summary: 'Tag categories, searched by name or prefix, one page at a time (default 10)',
    audience: 'member',
    access: TAG_READ,
    input: z.object({
      search: z.string().trim().max(64).optional(),
      page: z.coerce.number().int().min(0).max(100_000).default(0),
      size: z.coerce.number().int().min(1).max(100).default(10),
    }),
    output: z.object({
      categories: z.array(TagCategory),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  exists: defineCall({
    method: 'GET',
    path: '/service/web/tag/category/exists',
    summary: 'Whether a category key (prefix) is taken; with only a label, the key derived from it',
    audience: 'member',
    access: TAG_READ,
    input: z.object({ prefix: z.string().max(TAG_KEY_MAX).optional(), name: z.string().max(TAG_LABEL_MAX).optional() }),
    output: z.object({ value: z.boolean() }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/tag/category/add',
    summary: 'Adds a tag category (key derived from the label when empty)',
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({
      name: label,
      prefix: tagKey.optional(),
      category: z.coerce.number({ error: T.common.required }).int().min(1).max(4),
    }),
    output: z.object({ data: TagCategory }),
    errors: { [-12]: T.tags.serverKeyTaken },
    errorFields: { [T.tags.serverKeyTaken]: 'prefix' },
  }),
  addDefinition: defineCall({
    method: 'POST',
    path: '/service/web/tag/definition/add',
    summary: 'Adds an option to a single-selection tag category',
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({ name: label, prefix: optionCategory, name_lc: tagOptionKey.optional() }),
    output: z.object({ data: TagDefinition }),
    errors: {
      [TagCode.OPTION_DUPLICATE]: T.tags.optionDuplicate,
      [TagCode.OPTION_NOT_ALLOWED]: T.tags.optionNotAllowed,
    },
  }),
  // Edit and delete (not in the spec, issue 28): the key and the type stay as created, because every device's and
  // sensor's tag map is keyed by the category's prefix and holds options by name_lc; only the labels change. A
  // deletion takes the category (or option) out of every device and sensor tag map of the application.
  edit: defineCall({
    method: 'POST',
    path: '/service/web/tag/category/edit',
    summary: 'Renames a tag category (its key and type stay)',
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({ id, name: label }),
    output: z.object({ data: TagCategory }),
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/tag/category/remove',
    summary: "Removes a tag category with its options, and its values from the application's devices and sensors",
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({ id }),
    output: z.object({ devices: z.number().int() }),
  }),
  editDefinition: defineCall({
    method: 'POST',
    path: '/service/web/tag/definition/edit',
    summary: 'Renames an option of a single-selection category (its key stays)',
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({
      prefix: optionCategory,
      name_lc: z.string().min(1, T.common.required).max(TAG_KEY_MAX),
      name: label,
    }),
    output: z.object({ data: TagDefinition }),
  }),
  removeDefinition: defineCall({
    method: 'POST',
    path: '/service/web/tag/definition/remove',
    summary: "Removes an option of a category, and that value from the application's devices and sensors",
    audience: 'member',
    access: TAG_WRITE,
    input: z.object({ prefix: optionCategory, name_lc: z.string().min(1, T.common.required).max(TAG_KEY_MAX) }),
    output: z.object({ devices: z.number().int() }),
  }),
} as const;
