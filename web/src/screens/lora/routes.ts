// The LoRa network server screens (spec 03 section 2.11): the list is readable with the device entries, the forms
// need _device_manage_ (as the server's LoRa writes). Reached from the LoRa activation step ("Kelola LoRA Server").
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const READ: readonly SysNav[] = ['_device_manage_', '_device_list_'];
const WRITE: readonly SysNav[] = ['_device_manage_'];

const List = lazy(() => import('./LoraListPage.js').then((m) => ({ default: m.LoraListPage })));
const Form = lazy(() => import('./LoraFormPage.js').then((m) => ({ default: m.LoraFormPage })));

export const loraRoutes: readonly ScreenRoute[] = [
  { key: '_lora_list_', title: T.lora.title, grantedBy: READ, screen: List },
  { key: '_lora_add_', title: T.lora.title, grantedBy: WRITE, screen: Form },
  { key: '_lora_edit_/{id}', title: T.lora.title, grantedBy: WRITE, screen: Form },
];
