// The tag category calls of the tag screens (spec 03 sections 2.8, 8), as values or a DeviceCallError with the
// catalogue's message.
import { T, contracts, type InputOf, type TagCategory, type TagDefinition } from '@sentra/contracts';
import type { z } from 'zod';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { callFailure } from '../devices/deviceCalls.js';

export async function listTagCategories(input: InputOf<typeof contracts.tags.list>): Promise<{ categories: TagCategory[]; total: number }> {
  const r = await api.call(contracts.tags.list, input);
  if (!isOk(r)) throw callFailure(r, contracts.tags.list, T.shell.loadFailed);
  return { categories: r.body.categories, total: r.body.total };
}

export async function addTagCategory(input: InputOf<typeof contracts.tags.add>): Promise<TagCategory> {
  const r = await api.call(contracts.tags.add, input);
  if (!isOk(r)) {
    const err = callFailure(r, contracts.tags.add, T.tags.addFailed);
    if (err.code === -12) err.fieldErrors.prefix = T.tags.serverKeyTaken;
    throw err;
  }
  return r.body.data;
}

export async function addTagOption(input: InputOf<typeof contracts.tags.addDefinition>): Promise<z.infer<typeof TagDefinition>> {
  const r = await api.call(contracts.tags.addDefinition, input);
  if (!isOk(r)) throw callFailure(r, contracts.tags.addDefinition, T.tags.optionAddFailed);
  return r.body.data;
}

/** Whether a category key is taken already (checked as the key field loses focus). */
export async function tagKeyTaken(prefix: string): Promise<boolean> {
  const r = await api.call(contracts.tags.exists, { prefix });
  return isOk(r) && r.body.value;
}

export async function renameTagCategory(id: number, name: string): Promise<TagCategory> {
  const r = await api.call(contracts.tags.edit, { id, name });
  if (!isOk(r)) throw callFailure(r, contracts.tags.edit, T.tags.editFailed);
  return r.body.data;
}

/** answers how many devices the category was taken off */
export async function removeTagCategory(id: number): Promise<number> {
  const r = await api.call(contracts.tags.remove, { id });
  if (!isOk(r)) throw callFailure(r, contracts.tags.remove, T.tags.removeFailed);
  return r.body.devices;
}

export async function renameTagOption(prefix: string, nameLc: string, name: string): Promise<void> {
  const r = await api.call(contracts.tags.editDefinition, { prefix, name_lc: nameLc, name });
  if (!isOk(r)) throw callFailure(r, contracts.tags.editDefinition, T.tags.optionEditFailed);
}

/** answers how many devices the option was taken off */
export async function removeTagOption(prefix: string, nameLc: string): Promise<number> {
  const r = await api.call(contracts.tags.removeDefinition, { prefix, name_lc: nameLc });
  if (!isOk(r)) throw callFailure(r, contracts.tags.removeDefinition, T.tags.optionRemoveFailed);
  return r.body.devices;
}
