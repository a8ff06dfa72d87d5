// DROPDOWN_SELECTOR: picks a value for a dashboard variable; the cards affected by it (model.affected_by) are
// re-queried with the new value (a second live feed carries the selected variables).
import { useEffect, useMemo, useState } from 'react';
import { Box, MenuItem, TextField } from '@mui/material';
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import type { CardViewProps } from '../common/definition.js';
import { useLiveDashboard } from '../../dashboards/live/LiveDashboard.js';
import { deviceOptions, optionIndex, selectorConfig, type SelectorOption } from './options.js';

export default function DropdownView({ component, view }: CardViewProps<{ title?: string }>) {
  const live = useLiveDashboard();
  const cfg = useMemo(
    () =>
      selectorConfig(component.key, component.model, {
        ...(live?.globals ?? {}),
        ...((component.var as Record<string, unknown>) ?? {}),
      }),
    [component, live?.globals],
  );
  const [loaded, setLoaded] = useState<SelectorOption[]>([]);
  useEffect(() => {
    if (!cfg.device) return;
    let on = true;
    void api.call(contracts.dashboards.devices, {} as never).then((r) => {
      if (on && isOk(r)) setLoaded(deviceOptions(r.body.devices, r.body.devices_label, cfg.device!));
    });
    return () => void (on = false);
  }, [cfg.device?.sensor, cfg.device?.config, cfg.device?.param]);
  const options = cfg.options.length > 0 ? cfg.options : loaded;
  const current = live?.variables[cfg.variable] ?? live?.globals?.[cfg.variable];
  const index = optionIndex(options, current);
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center' }}>
      <TextField
        select
        fullWidth
        size="small"
        label={view.title || cfg.variable}
        value={index >= 0 ? String(index) : ''}
        onChange={(e) => {
          const o = options[Number(e.target.value)];
          if (o) live?.setVariable(cfg.variable, o.value, component.key);
        }}
        slotProps={{ htmlInput: { 'data-testid': 'card-selector' }, select: { displayEmpty: true } }}
        helperText={options.length === 0 ? T.cardViews.selectorNoOptions : undefined}
      >
        {options.map((o, i) => (
          <MenuItem key={i} value={String(i)}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
