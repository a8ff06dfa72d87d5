// Ready-made rules of the demo application (issue 26: a new user sees tasks within minutes of `npm start`), written
// for the demo fleet's profiles (simulator/src/profiles): meters report pm/meter/voltage per phase around 225 V with a
// drift of a few volts, fuel stations tank/data/<product> with subparams volume, fill, level, every device reports its
// status. Added through the rules service (validated like a user's rule, loaded into the engine); idempotent by key.
import { RuleAddBody } from '@sentra/contracts';
import type { RulesService } from '../rules/rules.service.js';

const t = (
  query: 'SENSOR' | 'CONFIG' | 'PARAM' | 'VALUE',
  op: '==' | '>' | '>=' | '<=' | '<',
  value: string | number,
) => ({ node_type: 'INCOMING_DEVICE_DATA', field: { query }, op, value });

export const DEMO_RULES = [
  {
    // the phase-R voltage drifts past 229 V now and then on some of the meters: tasks within minutes
    name: 'Tegangan fasa R tinggi',
    key: 'demo_voltage_high',
    category: 11,
    description: 'Tegangan fasa R di atas 229 V (selesai di bawah 227 V)',
    condition: {
      triggers: [
        t('SENSOR', '==', 'pm'),
        t('CONFIG', '==', 'meter'),
        t('PARAM', '==', 'voltage.r'),
        t('VALUE', '>', 229),
      ],
      clear: [t('SENSOR', '==', 'pm'), t('CONFIG', '==', 'meter'), t('PARAM', '==', 'voltage.r'), t('VALUE', '<', 227)],
      cooldown_s: 600,
    },
    action: {
      name: 'Catat',
      title: 'Tegangan tinggi {{device.name}} ({{value}} V)',
      new: [
        {
          type: 'EMAIL',
          email: 'teknisi@demo.sentra.local',
          subject: 'Tegangan tinggi: {{device.name}}',
          content: 'Tegangan {{param}} {{device.name}} {{value}} V pada {{time}}.',
        },
      ],
      response: [],
    },
  },
  {
    // a tank below 25 % of its capacity: the stations order a truck below 30 %, so this shows within hours
    name: 'BBM Pertalite hampir habis',
    key: 'demo_fuel_low',
    category: 11,
    description: 'Level tangki Pertalite di bawah 25 %',
    condition: {
      triggers: [
        t('SENSOR', '==', 'tank'),
        t('CONFIG', '==', 'data'),
        t('PARAM', '==', 'Pertalite.level'),
        t('VALUE', '<', 25),
      ],
      clear: [
        t('SENSOR', '==', 'tank'),
        t('CONFIG', '==', 'data'),
        t('PARAM', '==', 'Pertalite.level'),
        t('VALUE', '>=', 40),
      ],
    },
    action: {
      title: 'Pertalite {{device.name}} tinggal {{value}} %',
      new: [
        {
          type: 'EMAIL',
          email: 'spbu@demo.sentra.local',
          subject: 'BBM hampir habis: {{device.name}}',
          content: 'Level Pertalite {{value}} % pada {{time}}. Segera pesan pengiriman.',
        },
      ],
      response: [
        {
          type: 'EMAIL',
          email: 'spbu@demo.sentra.local',
          subject: 'Tugas {{task.title}}: {{task.status}}',
          content: 'Status tugas sekarang {{task.status}}.',
        },
      ],
    },
  },
  {
    name: 'Perangkat offline',
    key: 'demo_offline',
    category: 22,
    description: 'Perangkat offline lebih dari 2 menit',
    condition: { triggers: [t('VALUE', '==', 0)], duration_s: 120 },
    action: { title: '{{device.name}} offline', new: [], response: [] },
  },
] as const;

/** Adds the demo rules the application does not have yet (by key); answers how many were added. */
export async function seedDemoRules(rules: Pick<RulesService, 'add' | 'list'>, appId: number): Promise<number> {
  const have = new Set((await rules.list(appId, { page: 0, size: 100 })).rules.map((r) => r.key));
  let added = 0;
  for (const body of DEMO_RULES) {
    if (have.has(body.key)) continue;
    await rules.add(appId, RuleAddBody.parse(body));
    added++;
  }
  return added;
}
