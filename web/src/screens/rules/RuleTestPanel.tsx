// "Uji rule" (issue 26): runs the server's rule/test over the last 24 hours of the chosen device and shows when the
// rule would have fired: a small chart (Plotly, loaded only when a test answers, as the chart cards load it) of the
// watched value with the threshold line and the firing moments marked.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import ScienceIcon from '@mui/icons-material/Science';
import { T, type TriggerEntry } from '@sentra/contracts';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { testRule, type RuleTestResult } from './ruleCalls.js';
import { testFigure, thresholdOf } from './ruleTest.js';

export interface RuleTestSubject {
  category: number;
  /** the trigger entries (the wizard's rows, or the manual condition's `triggers`) */
  trigger: TriggerEntry[];
  /** the rest of the condition (duration_s, clear, cooldown_s); the manual form passes its whole condition */
  condition: Record<string, unknown>;
  deviceId: number | null;
}

const TEST_HOURS = 24;

export function RuleTestPanel({ subject }: { subject: RuleTestSubject | null }) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chart = useRef<HTMLDivElement>(null);
  const threshold = subject
    ? thresholdOf(
        subject.trigger.length ? subject.trigger : ((subject.condition.triggers as TriggerEntry[] | undefined) ?? []),
      )
    : null;
  const tOp = threshold?.op;
  const tValue = threshold?.value;
  const figure = useMemo(
    () =>
      result ? testFigure(result, tOp !== undefined && tValue !== undefined ? { op: tOp, value: tValue } : null) : null,
    [result, tOp, tValue],
  );

  const run = async () => {
    if (!subject?.deviceId) return;
    setRunning(true);
    setError(null);
    try {
      const hasTriggers = Array.isArray(subject.condition.triggers) || Array.isArray(subject.condition.groups);
      setResult(
        await testRule({
          category: subject.category,
          condition: subject.condition as never,
          ...(hasTriggers ? {} : { trigger: subject.trigger }),
          device_id: subject.deviceId,
          hours: TEST_HOURS,
        }),
      );
    } catch (e) {
      setResult(null);
      setError(
        e instanceof DeviceCallError ? (Object.values(e.fieldErrors)[0] ?? e.message) : T.ruleScreens.testFailed,
      );
    } finally {
      setRunning(false);
    }
  };

  useEffect(() => {
    const el = chart.current;
    if (!el || !figure || figure.points + figure.firings === 0) return;
    let cancelled = false;
    void import('../../cards/chart/plotly.js').then((m) => {
      if (cancelled) return;
      void m
        .plotly()
        .react(
          el,
          figure.data as never,
          figure.layout as never,
          { displayModeBar: false, responsive: true, locale: m.PLOTLY_LOCALE } as never,
        );
    });
    return () => {
      cancelled = true;
    };
  }, [figure]);

  return (
    <Card variant="outlined" sx={{ mt: 3 }} data-testid="rule-test-panel">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
            {T.ruleScreens.testTitle}
          </Typography>
          <Button
            variant="outlined"
            startIcon={running ? <CircularProgress size={16} /> : <ScienceIcon />}
            disabled={running || !subject?.deviceId}
            onClick={() => void run()}
          >
            {T.ruleScreens.testRun}
          </Button>
        </Stack>
        {!subject?.deviceId && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {T.ruleScreens.testNeedsDevice}
          </Typography>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {figure && (
          <Box sx={{ mt: 2 }}>
            <Alert severity={figure.firings ? 'warning' : 'info'} data-testid="rule-test-summary">
              {figure.summary}
            </Alert>
            {figure.points + figure.firings > 0 && (
              <Box ref={chart} sx={{ mt: 1, height: 220 }} data-testid="rule-test-chart" />
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
