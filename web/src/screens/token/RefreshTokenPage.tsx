// Refresh Token (@token, the top bar's API entry; spec 01 sections 2, 4, 8): shows the signed-in principal's refresh
// token of this application, copies it, and regenerates it after a confirmation (the previous token stops at once);
// a regenerated token is copied to the clipboard with 'Refresh token telah di-copy ke clipboard.'.
import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  InputAdornment,
  Link,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { contracts, OPENAPI_PATH, T } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { copyText } from '../../ui/clipboard.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { callAndNotify, callOrThrow, useLoad } from '../../api/call.js';

async function copyToken(token: string) {
  if (await copyText(token)) notices.success(T.refreshToken.copied);
  else notices.error(T.common.copyFailed);
}

export function RefreshTokenPage() {
  const { isTenant } = useAppArea();
  const { busy: acting, act: confirmed } = useConfirmedAction();
  const [token, setToken] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const busy = loading || acting;
  const [shown, setShown] = useState(false);

  useLoad(
    () => callAndNotify(contracts.refreshToken.get),
    (o) => {
      setLoading(false);
      if (o.ok) setToken(o.value.refresh_token);
    },
    [],
  );

  const regenerate = () =>
    confirmed({
      ask: { title: T.refreshToken.regenerate, message: T.refreshToken.regenerateConfirm },
      run: (failed) => callOrThrow(contracts.refreshToken.gen, {}, failed),
      failed: T.refreshToken.generateFailed,
      // no notice of its own: copying the new token says so (copyToken)
      done: async (r) => {
        setToken(r.refresh_token);
        await copyToken(r.refresh_token);
      },
    });

  const label = shown ? T.refreshToken.hide : T.refreshToken.show;
  return (
    <Card sx={{ position: 'relative', maxWidth: 880 }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {T.refreshToken.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {T.refreshToken.subtitle}
        </Typography>
        <Alert severity="warning" sx={{ mb: 3 }}>
          {isTenant ? T.refreshToken.warningTenant : T.refreshToken.warningMember}
        </Alert>
        <TextField
          name="refresh_token"
          label={T.refreshToken.title}
          value={token ?? ''}
          type={shown ? 'text' : 'password'}
          fullWidth
          slotProps={{
            input: {
              readOnly: true,
              sx: { fontFamily: 'monospace' },
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={label}>
                    <IconButton aria-label={label} onClick={() => setShown((s) => !s)} edge="end">
                      {shown ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          <Button
            startIcon={<ContentCopyIcon />}
            onClick={() => token && void copyToken(token)}
            disabled={busy || !token}
          >
            {T.refreshToken.copy}
          </Button>
          <Button
            variant="contained"
            color="warning"
            startIcon={<AutorenewIcon />}
            onClick={() => void regenerate()}
            disabled={busy}
          >
            {T.refreshToken.regenerate}
          </Button>
        </Stack>
        <Box sx={{ mt: 4 }}>
          <Typography variant="body2" color="text.secondary">
            {T.refreshToken.exchangeHelp(contracts.refreshToken.exchange.path)}
          </Typography>
          <Link href={OPENAPI_PATH} target="_blank" rel="noopener" variant="body2">
            {T.refreshToken.apiDocs}
          </Link>
        </Box>
      </CardContent>
      <LoadingOverlay open={busy} />
    </Card>
  );
}
