// The device tag screens (spec 03 sections 2.7, 4, 5): the category choice ("Pilih kategori yang akan dipakai untuk
// perangkat"; Batal, Berikutnya; none chosen asks "Tidak ada penanda yang dipilih! ..." and saves empty tags) and the
// tag values ("Pilih penanda yang akan dipakai dalam perangkat"; Batal, Simpan). The choice travels in `?cat=`.
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  FormGroup,
  Stack,
  Typography,
} from '@mui/material';
import { T, type TagCategory } from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useConfirm } from '../../ui/ConfirmDialog.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceRoute } from './deviceRoutes.js';
import { editDevice, loadTagCategories, DeviceCallError } from './deviceCalls.js';
import { tagValueErrors, tagsBody, usedCategories, type TagValues } from './tagValues.js';
import { TagValueFields } from './TagValueFields.js';
import { useDevice } from './useDevice.js';

export function DeviceEditTagsPage({ routeKey }: ScreenProps) {
  const area = useAppArea();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [search] = useSearchParams();
  const { id, device, loading } = useDevice();
  const [categories, setCategories] = useState<TagCategory[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState<TagValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const valueStep = routeKey === DeviceRoute.editTagValues;
  const carried = search.get('cat');

  useEffect(() => {
    loadTagCategories().then(setCategories, () => setCategories([]));
  }, []);

  useEffect(() => {
    if (!device || !categories) return;
    const known = new Set(categories.map((c) => c.prefix));
    const fromQuery = carried === null ? null : carried.split(',').filter((p) => known.has(p));
    setChosen(fromQuery ?? usedCategories(categories, device.tags));
    setValues(device.tags);
    setErrors({});
    // the value step without a choice goes back to the choice
    if (valueStep && (!fromQuery || fromQuery.length === 0))
      navigate(area.to(DeviceRoute.editTags, { id }), { replace: true });
  }, [device, categories, carried, valueStep, navigate, area, id]);

  const save = async (tags: TagValues) => {
    setBusy(true);
    try {
      await editDevice({ id, tags });
      notices.success(T.devices.editSuccess);
      navigate(area.to(DeviceRoute.list));
    } catch (err) {
      notices.error(err instanceof DeviceCallError ? err.message : T.devices.editFailed);
      setBusy(false);
    }
  };

  const next = async () => {
    if (chosen.length === 0) {
      // the same save as the value step (it stays busy while leaving), asked first only when no tag is chosen
      if (await confirm({ message: T.devices.noTagsConfirm })) await save({});
      return;
    }
    navigate(`${area.to(DeviceRoute.editTagValues, { id })}?cat=${encodeURIComponent(chosen.join(','))}`);
  };

  const submitValues = async () => {
    const problems = tagValueErrors(categories ?? [], chosen, values);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    await save(tagsBody(categories ?? [], chosen, values));
  };

  const toList = () => navigate(area.to(DeviceRoute.list));

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
        {T.devices.editTagsTitle}
      </Typography>
      {device && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>{`${device.name} · ${device.serial_number}`}</Typography>
      )}
      <Card variant="outlined" sx={{ position: 'relative', minHeight: 160 }}>
        <CardContent>
          <Typography sx={{ mb: 2 }}>{valueStep ? T.devices.chooseTags : T.devices.chooseTagCategories}</Typography>
          {valueStep ? (
            <TagValueFields
              categories={categories ?? []}
              chosen={chosen}
              values={values}
              errors={errors}
              disabled={busy}
              onChange={(prefix, v) => setValues((prev) => ({ ...prev, [prefix]: v }))}
            />
          ) : (
            <FormGroup>
              {categories?.length === 0 && <Typography color="text.secondary">{T.devices.noTagCategories}</Typography>}
              {categories?.map((c) => (
                <FormControlLabel
                  key={c.prefix}
                  label={c.name}
                  control={
                    <Checkbox
                      checked={chosen.includes(c.prefix)}
                      disabled={busy}
                      onChange={() =>
                        setChosen((prev) =>
                          prev.includes(c.prefix) ? prev.filter((p) => p !== c.prefix) : [...prev, c.prefix],
                        )
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
            <Button onClick={toList} disabled={busy}>
              {T.common.cancel}
            </Button>
            {valueStep ? (
              <Button variant="contained" disabled={busy || !device} onClick={() => void submitValues()}>
                {T.common.save}
              </Button>
            ) : (
              <Button variant="contained" disabled={busy || !device || !categories} onClick={() => void next()}>
                {T.common.next}
              </Button>
            )}
          </Stack>
        </CardContent>
        <LoadingOverlay open={loading || busy || categories === null} />
      </Card>
    </Box>
  );
}
