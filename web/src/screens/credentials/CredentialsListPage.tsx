// Credentials (@credentials, spec 01 sections 2 "Credentials", 4, 8): one card per pair with its category text, id and
// secret; the card menu copies the id or the secret, regenerates the secret (after a warning), edits or deletes.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Box, Card, CardContent, Chip, IconButton, Menu, Stack, Tooltip, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { withSavedRow } from '../../ui/PagedTable.js';
import { copyText } from '../../ui/clipboard.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { maskSecret } from './secret.js';
import { callOrThrow, useListCall } from '../../api/call.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';
import { CardListPage } from '../../ui/CardListPage.js';

type CredentialsPair = OutputOf<typeof contracts.credentials.list>['data'][number];

async function copyWithNotice(text: string, done: string) {
  if (await copyText(text)) notices.success(done);
  else notices.error(T.common.copyFailed);
}

function SecretLine({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography
        variant="body2"
        data-testid="credentials-secret"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1, minWidth: 0 }}
      >
        {shown ? secret : maskSecret(secret)}
      </Typography>
      <Tooltip title={shown ? T.credentials.hideSecret : T.credentials.showSecret}>
        <IconButton
          size="small"
          aria-label={shown ? T.credentials.hideSecret : T.credentials.showSecret}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

export function CredentialsListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy, act: confirmed } = useConfirmedAction();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; pair: CredentialsPair } | null>(null);

  const { items, setItems, load } = useListCall(contracts.credentials.list);

  const regenerate = (pair: CredentialsPair) =>
    confirmed({
      ask: { title: T.credentials.regenerateSecret, message: T.credentials.regenerateConfirm },
      run: (failed) => callOrThrow(contracts.credentials.regenerateSecret, { id: pair.id }, failed),
      success: T.credentials.generateSuccess,
      failed: T.credentials.generateFailed,
      done: (r) => setItems(withSavedRow(r.data)),
    });

  const remove = (pair: CredentialsPair) =>
    confirmed({
      ask: { message: T.credentials.deleteConfirm(pair.credentials_id) },
      run: (failed) => callOrThrow(contracts.credentials.delete, { id: pair.id }, failed),
      success: T.credentials.deleteSuccess,
      failed: T.credentials.deleteFailed,
      done: load,
    });

  const act = (what: (pair: CredentialsPair) => unknown) => () => {
    const pair = menu?.pair;
    setMenu(null);
    if (pair) void what(pair);
  };

  return (
    <CardListPage
      title={T.credentials.title}
      subtitle={T.credentials.listSubtitle}
      add={{ to: area.to('@credentials/create'), label: T.credentials.createButton }}
      emptyText={T.credentials.empty}
      items={items}
      busy={busy}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
        {items?.map((c) => (
          <Card key={c.id} variant="outlined" data-testid="credentials-card">
            <CardContent>
              <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
                <Chip label={c.category_text} color="primary" size="small" data-testid="credentials-category" />
                <IconButton
                  aria-label={T.credentials.cardMenu}
                  onClick={(e) => setMenu({ anchor: e.currentTarget, pair: c })}
                  size="small"
                >
                  <MoreVertIcon />
                </IconButton>
              </Stack>
              <Typography variant="caption" color="text.secondary">
                {T.credentials.credentialsId}
              </Typography>
              <Typography
                variant="subtitle1"
                data-testid="credentials-id"
                sx={{ fontFamily: 'monospace', fontWeight: 700, wordBreak: 'break-all', mb: 1 }}
              >
                {c.credentials_id}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {T.credentials.credentialsSecret}
              </Typography>
              <SecretLine key={c.credentials_secret} secret={c.credentials_secret} />
            </CardContent>
          </Card>
        ))}
      </Box>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <IconMenuItem
          icon={<ContentCopyIcon fontSize="small" />}
          text={T.credentials.copyId}
          onClick={act((p) => copyWithNotice(p.credentials_id, T.credentials.idCopied))}
        />
        <IconMenuItem
          icon={<ContentCopyIcon fontSize="small" />}
          text={T.credentials.copySecret}
          onClick={act((p) => copyWithNotice(p.credentials_secret, T.credentials.secretCopied))}
        />
        <IconMenuItem
          icon={<AutorenewIcon fontSize="small" />}
          text={T.credentials.regenerateSecret}
          onClick={act(regenerate)}
        />
        <IconMenuItem
          icon={<EditIcon fontSize="small" />}
          text={T.credentials.edit}
          onClick={act((p) => navigate(area.to('@credentials/update/{id}', { id: p.id })))}
        />
        <IconMenuItem
          icon={<DeleteIcon fontSize="small" color="error" />}
          text={T.credentials.delete}
          onClick={act(remove)}
        />
      </Menu>
    </CardListPage>
  );
}
