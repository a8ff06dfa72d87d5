// The rule editor's screen for its create and update routes (spec 03 section 2.9): editor/info, trigger, action,
// action/task, action/task/{taskId}; info/{id}, trigger/{id}, action/{id}, action/task/{id}/{taskId}. The machine
// decides the step; this screen keeps the address in step with it (the wizard's id rides in the history state, so a
// step reached from elsewhere starts a new wizard, which sends it to info), and turns the browser's back button into
// the wizard's BACK.
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Alert, Box, Button, Card, CardContent, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { T, type TriggerEntry } from '@sentra/contracts';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useConfirm } from '../../ui/ConfirmDialog.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { WizardForm, WizardLoadFailed } from '../../ui/WizardParts.js';
import { historyWizardStore } from '../../ui/wizardStore.js';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { draftExtras, draftTriggers, type TaskGroup } from './ruleDraft.js';
import {
  parseTaskId,
  ruleWizardMachine,
  taskIdOf,
  WIZARD_STEPS,
  type RuleWizardContext,
  type WizardStep,
} from './ruleWizard.machine.js';
import { ActionStep, InfoStep, TaskStep, TriggerStep } from './RuleWizardSteps.js';
import { RuleTestPanel } from './RuleTestPanel.js';
import { EditorRoute, RuleRoute } from './routes.js';

const S = T.ruleScreens;
type Actor = ActorRefFrom<typeof ruleWizardMachine>;
type Snapshot = ReturnType<Actor['getSnapshot']>;

// the one wizard in progress, continued while the history state carries its id (as the role wizard's)
const { obtainWizard: obtain, releaseWizard: release } = historyWizardStore('rule-wizard', ruleWizardMachine);

/** The step a route key names. */
const stepOfRoute = (key: string): WizardStep =>
  key === EditorRoute.trigger || key === EditorRoute.editTrigger
    ? 'trigger'
    : key === EditorRoute.action || key === EditorRoute.editAction
      ? 'action'
      : key === EditorRoute.newTask || key === EditorRoute.task || key === EditorRoute.editTask
        ? 'task'
        : 'info';

/** The step a snapshot shows (during a save: action). */
function stepOf(s: Snapshot): WizardStep | null {
  for (const step of ['info', 'trigger', 'action', 'task'] as const) if (s.matches(step)) return step;
  return s.matches('saving') ? 'action' : null;
}
const order = (s: WizardStep) => ['info', 'trigger', 'action', 'task'].indexOf(s);

/** The address of the machine's step. */
function addressOf(s: Snapshot, area: ReturnType<typeof useAppArea>): string | null {
  const step = stepOf(s);
  if (!step) return null;
  const c = s.context;
  const edit = c.mode === 'edit';
  const id = c.ruleId ?? 0;
  if (step === 'task' && c.task) {
    const group = `?group=${c.task.group}`;
    if (c.task.index === null)
      return edit ? area.to(EditorRoute.editTask, { id, taskId: 'new' }) + group : area.to(EditorRoute.newTask) + group;
    const taskId = taskIdOf({ group: c.task.group, index: c.task.index });
    return edit ? area.to(EditorRoute.editTask, { id, taskId }) : area.to(EditorRoute.task, { taskId });
  }
  const keys = {
    info: [EditorRoute.info, EditorRoute.editInfo],
    trigger: [EditorRoute.trigger, EditorRoute.editTrigger],
    action: [EditorRoute.action, EditorRoute.editAction],
    task: [EditorRoute.action, EditorRoute.editAction],
  } as const;
  return area.to(keys[step][edit ? 1 : 0], { id });
}

/** The test panel's subject: the draft's triggers and extras on the device its trigger names. */
function testSubjectOf(c: RuleWizardContext) {
  const trigger = draftTriggers(c.draft) as TriggerEntry[];
  const device = Number(c.draft.trigger.find((r) => r.field === 'DEVICE_ID')?.value);
  return {
    category: c.draft.info.category,
    trigger,
    condition: draftExtras(c.draft),
    deviceId: Number.isSafeInteger(device) && device > 0 ? device : null,
  };
}

export function RuleWizardPage({ routeKey }: ScreenProps) {
  const { id = '', taskId } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const area = useAppArea();
  const confirm = useConfirm();
  const mode = routeKey.includes('{id}') ? 'edit' : 'add';
  const ruleId = Number(id);
  const routeStep = stepOfRoute(routeKey);
  const group: TaskGroup = search.get('group') === 'response' ? 'response' : 'new';
  const carried = (location.state as { ruleWizard?: string } | null)?.ruleWizard;
  const key = mode === 'add' ? 'add' : `edit:${ruleId}`;

  const h = useMemo(() => {
    const task = routeStep === 'task' ? (parseTaskId(taskId) ?? { group, index: -1 }) : null;
    return obtain(
      key,
      carried,
      location.key,
      mode === 'add' ? { mode: 'add', start: routeStep, task } : { mode: 'edit', ruleId, start: routeStep, task },
    );
    // a new wizard only for another rule or another visit; the step follows the machine
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, carried, location.key]);
  const snapshot = useSelector(h.actor, (s) => s);
  const ctx = snapshot.context;
  const send = h.actor.send;
  const step = stepOf(snapshot);

  // the browser's back button: the address moved to an earlier step than the machine's
  const lastAddress = useRef(location.pathname + location.search);
  useEffect(() => {
    const here = location.pathname + location.search;
    if (lastAddress.current === here) return;
    lastAddress.current = here;
    if (carried !== h.id) return;
    for (let guard = 0; guard < 4; guard++) {
      const now = stepOf(h.actor.getSnapshot());
      if (!now || order(now) <= order(routeStep)) break;
      h.actor.send({ type: 'BACK' });
      if (stepOf(h.actor.getSnapshot()) === now) break;
    }
  }, [location.pathname, location.search, routeStep, carried, h]);

  // the address follows the machine (and carries the wizard's id)
  useEffect(() => {
    const s = h.actor.getSnapshot();
    if (s.status === 'done') {
      release(h);
      navigate(area.to(RuleRoute.list));
      return;
    }
    const wanted = addressOf(s, area);
    const here = location.pathname + location.search;
    if (!wanted || (wanted === here && carried === h.id)) return;
    const now = stepOf(s);
    const forward = carried === h.id && now !== null && order(now) > order(routeStep);
    lastAddress.current = wanted;
    navigate(wanted, { replace: !forward, state: { ruleWizard: h.id } });
  }, [snapshot, h, carried, routeStep, area, navigate, location.pathname, location.search]);

  const busy = snapshot.matches('loading') || snapshot.matches('saving');
  const reset = async () => {
    if (await confirm({ title: S.confirmTitle, message: S.resetConfirm })) send({ type: 'RESET' });
  };
  const primary =
    step === 'info'
      ? { label: T.common.next, event: { type: 'SUBMIT_INFO' } as const }
      : step === 'trigger'
        ? { label: T.common.next, event: { type: 'NEXT' } as const }
        : step === 'task'
          ? { label: T.common.save, event: { type: 'SUBMIT_TASK' } as const }
          : { label: T.common.save, event: { type: 'SAVE' } as const };
  const stepIndex = step ? Math.min(order(step), 2) : 0;

  return (
    <Box sx={{ maxWidth: 960 }}>
      <Card sx={{ position: 'relative' }}>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 3 }}>
            {mode === 'add' ? S.addTitleEditor : S.editTitleEditor}
          </Typography>
          <Stepper activeStep={stepIndex} alternativeLabel sx={{ mb: 4 }}>
            {WIZARD_STEPS.map((s) => (
              <Step key={s}>
                <StepLabel>{s === 'info' ? S.stepInfo : s === 'trigger' ? S.stepTrigger : S.stepAction}</StepLabel>
              </Step>
            ))}
          </Stepper>
          {snapshot.matches('failed') && (
            <WizardLoadFailed error={ctx.loadError} onRetry={() => send({ type: 'RETRY' })} />
          )}
          {mode === 'edit' && !ctx.wizardOk && step && (
            <Alert
              severity="warning"
              sx={{ mb: 2 }}
              action={
                <Button onClick={() => navigate(area.to(RuleRoute.edit, { id: ruleId }))}>{T.rules.manual}</Button>
              }
            >
              {S.wizardCannotEdit}
            </Alert>
          )}
          <WizardForm
            onSubmit={() => {
              if (step && !busy) send(primary.event);
            }}
          >
            {step === 'info' && <InfoStep draft={ctx.draft} errors={ctx.infoErrors} disabled={busy} send={send} />}
            {step === 'trigger' && (
              <TriggerStep draft={ctx.draft} errors={ctx.triggerErrors} disabled={busy} send={send} />
            )}
            {step === 'action' && (
              <ActionStep draft={ctx.draft} saveError={ctx.saveError} disabled={busy} send={send} />
            )}
            {step === 'task' && ctx.task && <TaskStep task={ctx.task} disabled={busy} send={send} />}
            <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'space-between', flexWrap: 'wrap' }}>
              <Button color="warning" onClick={() => void reset()} disabled={busy || !step}>
                {S.reset}
              </Button>
              <Stack direction="row" spacing={1}>
                <Button
                  onClick={() => (step === 'task' ? send({ type: 'BACK' }) : navigate(area.to(RuleRoute.list)))}
                  disabled={snapshot.matches('saving')}
                >
                  {T.common.cancel}
                </Button>
                {step && step !== 'info' && (
                  <Button onClick={() => send({ type: 'BACK' })} disabled={busy}>
                    {T.common.back}
                  </Button>
                )}
                {step && (
                  <Button type="submit" variant="contained" disabled={busy}>
                    {primary.label}
                  </Button>
                )}
              </Stack>
            </Stack>
          </WizardForm>
        </CardContent>
        <LoadingOverlay open={busy} />
      </Card>
      {(step === 'trigger' || step === 'action') && <RuleTestPanel subject={testSubjectOf(ctx)} />}
    </Box>
  );
}
