// About (@about): the application's id, name, domain and created time, read-only (spec 01 section 2).
import { useParams } from 'react-router';
import { Alert, Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { areaOf } from '../../api/area.js';
import { useAppInfo } from './useAppInfo.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { formatDateTime } from '../../ui/format.js';

export function AboutPage() {
  const { domain = '' } = useParams();
  const isTenant = areaOf(window.location.pathname).isTenant;
  const { data, loading, failed, notFound } = useAppInfo(domain, isTenant);
  const fields: [string, string, string][] = data
    ? [
        ['id', T.about.id, String(data.id)],
        ['name', T.about.name, data.name],
        ['domain', T.about.domain, data.domain],
        ['created_time', T.about.createdTime, formatDateTime(data.created_time)],
      ]
    : [];
  return (
    <Card sx={{ maxWidth: 640, position: 'relative', minHeight: 160 }}>
      <CardContent>
        <Typography variant="h5" component="h2" gutterBottom>
          {T.about.title}
        </Typography>
        {(failed || notFound) && <Alert severity="error">{T.shell.loadFailed}</Alert>}
        <Box sx={{ display: 'grid', gap: 2, mt: 1 }}>
          {fields.map(([name, label, value]) => (
            <TextField
              key={name}
              name={name}
              label={label}
              value={value}
              slotProps={{ input: { readOnly: true } }}
              fullWidth
            />
          ))}
        </Box>
      </CardContent>
      <LoadingOverlay open={loading} />
    </Card>
  );
}
