// The rule form's task step is drawn from the channels' descriptors: it offers every channel as a task type, and a
// chosen channel shows its address (required), its optional fields and the content, and no other channel's fields.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { CHANNEL_TASK_FIELDS, CHANNELS, T, type TaskType } from '@sentra/contracts';
import { resetApiRecorder } from '../../cards/api.test-kit.js';
import { emptyTask } from './ruleDraft.js';
import { TaskStep } from './RuleWizardSteps.js';

vi.mock('../../api/client.js', async () => (await import('../../cards/api.test-kit.js')).recordedApiModule());

beforeEach(resetApiRecorder);
afterEach(cleanup);

function renderStep(type: TaskType) {
  const send = vi.fn();
  render(
    <MemoryRouter initialEntries={['/contoh/rules']}>
      <TaskStep task={{ group: 'new', index: null, form: emptyTask(type), errors: {} }} disabled={false} send={send} />
    </MemoryRouter>,
  );
  return send;
}
const textboxes = () => screen.getAllByRole('textbox');
/** the text field labelled `label` (a required one's label ends with " *") */
const field = (label: string) =>
  screen.getByRole('textbox', { name: (name) => name.replace(/\s*\*$/, '') === label }) as HTMLInputElement;

describe('the task step of the rule form', () => {
  it('offers every channel as a task type, in the channels order', () => {
    renderStep(CHANNELS[0].code);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: new RegExp(T.ruleScreens.taskType) }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('data-value'))).toEqual(CHANNELS.map((c) => c.code));
  });

  for (const c of CHANNELS) {
    it(`shows the fields of ${c.code} from its descriptor`, () => {
      const send = renderStep(c.code);
      const address = field(c.address.label);
      expect(address.required).toBe(true);
      expect(address.getAttribute('type')).toBe(c.address.inputType ?? 'text');
      expect(address.getAttribute('placeholder')).toBe(c.address.placeholder ?? null);
      for (const o of c.optional) expect(field(o.label).required).toBe(false);
      // the address, the optional fields and the content: nothing of another channel
      expect(textboxes()).toHaveLength(1 + c.optional.length + 1);
      const content = field(T.ruleScreens.content);
      expect(content.getAttribute('placeholder')).toBe(c.defaultContent ? T.rules.defaultContent : null);
      fireEvent.change(address, { target: { value: c.address.example } });
      expect(send).toHaveBeenLastCalledWith({ type: 'EDIT_TASK', patch: { [c.address.field]: c.address.example } });
      expect(CHANNEL_TASK_FIELDS).toContain(c.address.field);
    });
  }
});
