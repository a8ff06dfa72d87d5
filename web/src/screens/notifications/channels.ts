// Which notification channels the gateway can send through (contracts notifications/channels): asked once per
// application while the console runs (the gateway's configuration changes only with a restart), shared by the rule
// editor and Manage Task. A failed ask answers nothing known, so no warning is shown rather than a wrong one.
import { contracts, T, type ChannelStatus, type NotificationChannel } from '@sentra/contracts';
import { useEffect, useState } from 'react';
import { callOrThrow } from '../../api/call.js';

const asked = new Map<string, Promise<ChannelStatus[] | null>>();

/** The channels of the application `domain`'s gateway (null until known, or when it cannot be read). */
export function loadChannels(domain: string): Promise<ChannelStatus[] | null> {
  let p = asked.get(domain);
  if (!p) {
    p = callOrThrow(contracts.notifications.channels, {}, T.notifications.channelsUnknown).then(
      (r) => r.channels,
      () => {
        asked.delete(domain); // ask again next time
        return null;
      },
    );
    asked.set(domain, p);
  }
  return p;
}

/** forgets what was asked (tests; a console pointed at another gateway) */
export const forgetChannels = () => asked.clear();

export function useChannels(domain: string): ChannelStatus[] | null {
  const [channels, setChannels] = useState<ChannelStatus[] | null>(null);
  useEffect(() => {
    let live = true;
    void loadChannels(domain).then((c) => live && setChannels(c));
    return () => {
      live = false;
    };
  }, [domain]);
  return channels;
}

/** The status of one channel when it is known to be unconfigured (what the notice is shown for), else undefined. */
export function unconfigured(
  channels: readonly ChannelStatus[] | null,
  channel: NotificationChannel | string,
): ChannelStatus | undefined {
  const c = channels?.find((x) => x.channel === channel);
  return c && !c.configured ? c : undefined;
}

/** "SMTP_URL dan SMTP_FROM", "SMS_ACCOUNT_SID, SMS_AUTH_TOKEN dan SMS_FROM" */
export function variableList(variables: readonly string[]): string {
  if (variables.length <= 1) return variables.join('');
  return `${variables.slice(0, -1).join(', ')} dan ${variables.at(-1)}`;
}
