// "Edit Perangkat" for one sensor row (spec 03 sections 2.5 "Penanda", 5): every tag category with the device editor's
// fields (TagValueFields: an option, a free value, a checkbox, or up to 3 multi tags separated with Tab, Enter or space,
// checked as they are typed), each allowed to stay empty; an unticked checkbox is sent as `false`, as for a device. The
// server checks the values again and answers the field in error. When the stored tags or the categories cannot be read
// the dialog says so and offers no Simpan (saving would overwrite the stored tags).
import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { contracts, T, TagType, type TagCategory } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import { TagValueFields } from '../devices/TagValueFields.js';
import { tagValueErrors, tagsBody, type TagValues } from '../devices/tagValues.js';
import { loadFailureText } from './loadFailure.js';

/** the categories a sensor row's save sends: every checkbox (ticked or not) and every other one given a value */
export const sentCategories = (categories: readonly TagCategory[], values: TagValues): string[] =>
  categories
    .filter((c) => c.category === TagType.CHECKBOX || (values[c.prefix] ?? []).some((v) => v.trim()))
    .map((c) => c.prefix);

export function SensorTagsDialog({
  deviceId,
  sensorKey,
  onClose,
}: {
  deviceId: number;
  sensorKey: string;
  onClose: () => void;
}) {
  const [categories, setCategories] = useState<TagCategory[] | null>(null);
  const [values, setValues] = useState<TagValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void Promise.all([
      api.call(contracts.tags.all),
      api.call(contracts.deviceData.tagsGet, { device_id: deviceId, key: sensorKey }),
    ]).then(([cats, tags]) => {
      if (!live) return;
      if (!isOk(cats)) return setLoadError(loadFailureText(cats));
      if (!isOk(tags)) return setLoadError(loadFailureText(tags));
      setValues(Object.fromEntries(cats.body.categories.map((c) => [c.prefix, tags.body.tags[c.prefix] ?? []])));
      setCategories(cats.body.categories);
    });
    return () => {
      live = false;
    };
  }, [deviceId, sensorKey]);

  const save = async () => {
    if (!categories) return;
    const chosen = sentCategories(categories, values);
    const problems = tagValueErrors(categories, chosen, values);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const r = await api.call(contracts.deviceData.tagsEdit, {
      device_id: deviceId,
      key: sensorKey,
      tags: tagsBody(categories, chosen, values),
    });
    setBusy(false);
    if (isOk(r)) {
      notices.success(T.deviceData.tagsSuccess);
      return onClose();
    }
    const body = r.body as { errors?: { path: string; message: string }[] } | null;
    setErrors(Object.fromEntries((body?.errors ?? []).map((e) => [e.path.split('.')[1] ?? '', e.message])));
    notices.error(T.deviceData.tagsFailed);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{T.deviceData.tagsTitle}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {sensorKey}
        </Typography>
        {loadError && (
          <Alert severity="error" data-testid="load-failed">
            {loadError}
          </Alert>
        )}
        {categories?.length === 0 && <Typography color="text.secondary">{T.deviceData.noTagCategories}</Typography>}
        {categories && (
          <TagValueFields
            optional
            categories={categories}
            chosen={categories.map((c) => c.prefix)}
            values={values}
            errors={errors}
            disabled={busy}
            onChange={(prefix, v) => setValues((prev) => ({ ...prev, [prefix]: v }))}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={!categories || busy}>
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
