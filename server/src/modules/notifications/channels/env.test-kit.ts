// For the tests: a valid value of every environment variable that configures a channel (a channel added without its
// values here fails channels.test.ts).
export const CHANNEL_EXAMPLE_ENV: Readonly<Record<string, string>> = {
  SMTP_URL: 'smtp://u:p@127.0.0.1:2525',
  SMTP_FROM: 'Sentra <alerts@example.com>',
  SMS_ACCOUNT_SID: 'AC1',
  SMS_AUTH_TOKEN: 't',
  SMS_FROM: '+15005550006',
  WHATSAPP_PHONE_NUMBER_ID: '123',
  WHATSAPP_TOKEN: 'EAAG',
};
