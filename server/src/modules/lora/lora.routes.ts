// LoRa network server calls, each answered inside the caller's application only.
import { loraContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { LoraService } from './lora.service.js';

export const loraRoutes = (lora: LoraService) =>
  implement(loraContract, {
    list: ({ caller, input }) => lora.list(caller.app!.id, input),
    get: ({ caller, input }) => ({ data: lora.get(caller.app!.id, input.id) }),
    add: ({ caller, input }) => ({ data: lora.add(caller.app!.id, input) }),
    edit: ({ caller, input }) => ({ data: lora.edit(caller.app!.id, input) }),
    remove: ({ caller, input }) => lora.remove(caller.app!.id, input.id),
  });
