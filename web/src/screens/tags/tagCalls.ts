// The tag category calls of the tag screens (spec 03 sections 2.8, 8), as values or a DeviceCallError with the
// catalogue's message.
import { T, contracts, type InputOf, type TagCategory, type TagDefinition } from '@sentra/contracts';
import type { z } from 'zod';
import { api } from '../../api/client.js';
import { callOrThrow } from '../../api/call.js';
import { isOk } from '../../api/request.js';

export async function listTagCategories(
  input: InputOf<typeof contracts.tags.list>,
): Promise<{ categories: TagCategory[]; total: number }> {
  const { categories, total } = await callOrThrow(contracts.tags.list, input, T.shell.loadFailed);
  return { categories, total };
}

export async function addTagCategory(input: InputOf<typeof contracts.tags.add>): Promise<TagCategory> {
  // a taken key shows under ID (the contract's errorFields)
  return (await callOrThrow(contracts.tags.add, input, T.tags.addFailed)).data;
}

export async function addTagOption(
  input: InputOf<typeof contracts.tags.addDefinition>,
): Promise<z.infer<typeof TagDefinition>> {
  return (await callOrThrow(contracts.tags.addDefinition, input, T.tags.optionAddFailed)).data;
}

/** Whether a category key is taken already (checked as the key field loses focus). */
export async function tagKeyTaken(prefix: string): Promise<boolean> {
  const r = await api.call(contracts.tags.exists, { prefix });
  return isOk(r) && r.body.value;
}

export async function renameTagCategory(id: number, name: string): Promise<TagCategory> {
  return (await callOrThrow(contracts.tags.edit, { id, name }, T.tags.editFailed)).data;
}

/** answers how many devices the category was taken off */
export async function removeTagCategory(id: number): Promise<number> {
  return (await callOrThrow(contracts.tags.remove, { id }, T.tags.removeFailed)).devices;
}

export async function renameTagOption(prefix: string, nameLc: string, name: string): Promise<void> {
  await callOrThrow(contracts.tags.editDefinition, { prefix, name_lc: nameLc, name }, T.tags.optionEditFailed);
}

/** answers how many devices the option was taken off */
export async function removeTagOption(prefix: string, nameLc: string): Promise<number> {
  return (await callOrThrow(contracts.tags.removeDefinition, { prefix, name_lc: nameLc }, T.tags.optionRemoveFailed))
    .devices;
}
