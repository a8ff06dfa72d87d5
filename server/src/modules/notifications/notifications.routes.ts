// What the console asks about notifications: which channels this gateway can send through (a transport configured),
// with the environment variables that configure each, so the rule editor and the task warn before a message is stored
// as "Belum diatur". Only variable names leave the gateway, never their values.
import {
  CHANNEL_VARIABLES,
  NOTIFICATION_CHANNELS,
  notificationsContract,
  type NotificationChannel,
} from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';

export function notificationsRoutes(worker: { readonly channels: readonly NotificationChannel[] }) {
  return implement(notificationsContract, {
    channels: () => ({
      channels: NOTIFICATION_CHANNELS.map((channel) => ({
        channel,
        configured: worker.channels.includes(channel),
        variables: [...CHANNEL_VARIABLES[channel]],
      })),
    }),
  });
}
