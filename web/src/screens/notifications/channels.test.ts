import { describe, expect, it } from 'vitest';
import { unconfigured, variableList } from './channels.js';

const channels = [
  { channel: 'EMAIL' as const, configured: true, variables: ['SMTP_URL', 'SMTP_FROM'] },
  { channel: 'SMS' as const, configured: false, variables: ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] },
];

describe('notification channels', () => {
  it('names a channel the gateway cannot send through, and none it can or does not know', () => {
    expect(unconfigured(channels, 'SMS')?.variables).toEqual(['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM']);
    expect(unconfigured(channels, 'EMAIL')).toBeUndefined();
    expect(unconfigured(null, 'SMS')).toBeUndefined();
  });
  it('lists the variables in Indonesian', () => {
    expect(variableList(['SMTP_URL', 'SMTP_FROM'])).toBe('SMTP_URL dan SMTP_FROM');
    expect(variableList(['A', 'B', 'C'])).toBe('A, B dan C');
    expect(variableList(['A'])).toBe('A');
  });
});
