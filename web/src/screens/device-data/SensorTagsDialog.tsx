// "Edit Perangkat" for one sensor row (spec 03 section 2.5 "Penanda"): a selection per tag category — an option (type
// 1), a free value (2), a checkbox (3), or up to 3 multi tags separated by spaces, commas or Enter (4). The server
// checks the values with the tag rules (section 5) and answers the field in error.
import { useEffect, useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { contracts, T, type TagCategory } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';

type Values = Record<string, string>;

const toText = (c: TagCategory, v: string[] | undefined) => (c.category === 4 ? (v ?? []).join(' ') : (v?.[0] ?? ''));
const fromText = (c: TagCategory, text: string): string[] => (c.category === 4 ? text.split(/[\s,]+/).filter(Boolean) : text ? [text] : []);

export function SensorTagsDialog({ deviceId, sensorKey, onClose }: { deviceId: number; sensorKey: string; onClose: () => void }) {
  const [categories, setCategories] = useState<TagCategory[] | null>(null);
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void Promise.all([api.call(contracts.tags.all), api.call(contracts.deviceData.tagsGet, { device_id: deviceId, key: sensorKey })]).then(([cats, tags]) => {
      const list = isOk(cats) ? cats.body.categories : [];
      const current = isOk(tags) ? tags.body.tags : {};
      setCategories(list);
      setValues(Object.fromEntries(list.map((c) => [c.prefix, toText(c, current[c.prefix])])));
    });
  }, [deviceId, sensorKey]);

  const save = async () => {
    if (!categories) return;
    const tags = Object.fromEntries(categories.map((c) => [c.prefix, fromText(c, values[c.prefix] ?? '')]).filter(([, v]) => (v as string[]).length > 0));
    setBusy(true);
    const r = await api.call(contracts.deviceData.tagsEdit, { device_id: deviceId, key: sensorKey, tags });
    setBusy(false);
    if (isOk(r)) {
      notices.success(T.deviceData.tagsSuccess);
      return onClose();
    }
    const body = r.body as { errors?: { path: string; message: string }[] } | null;
    setErrors(Object.fromEntries((body?.errors ?? []).map((e) => [e.path.split('.')[1] ?? '', e.message])));
    notices.error(T.deviceData.tagsFailed);
  };

  const set = (prefix: string, v: string) => setValues((prev) => ({ ...prev, [prefix]: v }));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{T.deviceData.tagsTitle}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{sensorKey}</Typography>
        {categories?.length === 0 && <Typography color="text.secondary">{T.deviceData.noTagCategories}</Typography>}
        <Stack spacing={2} sx={{ mt: 1 }}>
          {categories?.map((c) => {
            const common = { key: c.prefix, label: c.name, value: values[c.prefix] ?? '', error: Boolean(errors[c.prefix]), helperText: errors[c.prefix] ?? (c.category === 4 ? T.tags.hint : ' '), disabled: busy, fullWidth: true };
            if (c.category === 3) {
              return <FormControlLabel key={c.prefix} label={c.name} control={<Checkbox checked={values[c.prefix] === 'true'} onChange={(e) => set(c.prefix, e.target.checked ? 'true' : '')} />} />;
            }
            if (c.category === 1) {
              return (
                <TextField {...common} select onChange={(e) => set(c.prefix, e.target.value)}>
                  <MenuItem value="">-</MenuItem>
                  {c.definitions.map((d) => <MenuItem key={d.name_lc} value={d.name_lc}>{d.name}</MenuItem>)}
                </TextField>
              );
            }
            return <TextField {...common} onChange={(e) => set(c.prefix, e.target.value)} />;
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={!categories || busy}>{T.common.save}</Button>
      </DialogActions>
    </Dialog>
  );
}
