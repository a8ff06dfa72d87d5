// The LoRa network server screens (spec 03 section 2.11): the list is readable with the device entries, the forms
// need _device_manage_ (as the server's LoRa writes). Reached from the LoRa activation step ("Kelola LoRA Server").
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const READ: readonly SysNav[] = ['_device_manage_', '_device_list_'];
const WRITE: readonly SysNav[] = ['_device_manage_'];

const List = lazy(() => import('./LoraListPage.js').then((m) => ({ default: m.LoraListPage })));
const Form = lazy(() => import('./LoraFormPage.js').then((m) => ({ default: m.LoraFormPage })));

export const loraRoutes: readonly ScreenRoute[] = [
  ...routesOf(T.lora.title, READ, { _lora_list_: List }),
  ...routesOf(T.lora.title, WRITE, { _lora_add_: Form, '_lora_edit_/{id}': Form }),
];
