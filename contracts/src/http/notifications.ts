// Notification channels as the console needs to know them: which ones this gateway can send through, so the rule
// editor and the task say at once that a message will not be sent, and what configures its channel.
import { z } from 'zod';
import { ChannelStatus } from '../models/notifications.js';
import { defineCall } from './define.js';
import { RULE_ACCESS } from './rules.js';
import { TASK_ACCESS } from './tasks.js';

export const notificationsContract = {
  channels: defineCall({
    method: 'GET',
    path: '/service/web/notification/channels',
    summary:
      'Which notification channels the gateway is configured for, with the environment variables that configure each (their names, never their values)',
    audience: 'member',
    // whoever writes rules (their actions) or follows tasks (their deliveries)
    access: { navs: [...new Set([...RULE_ACCESS.navs, ...TASK_ACCESS.navs])] },
    input: z.object({}),
    output: z.object({ channels: z.array(ChannelStatus) }),
  }),
} as const;
