// "Rule" (spec 03 section 2.9): Rule, Deskripsi, the Status switch (toggled after a confirmation), Aksi (Edit asks
// "Ubah manual atau dengan editor?", Hapus with a confirmation), search by name on Enter or the button, paging 10
// (5, 10, 25), and the floating "Rule Baru" asking "Tambah manual atau dengan editor?".
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { Box, Fab, IconButton, Switch, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { RULE_PAGE_SIZES, T, type Rule } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows, withSavedRow, type Paging } from '../../ui/PagedTable.js';
import { activateRule, listRules, removeRule } from './ruleCalls.js';
import { ChoiceDialog, type RuleFormKind } from './ChoiceDialog.js';
import { EditorRoute, RuleRoute } from './routes.js';

const S = T.ruleScreens;

export function RuleListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy, act: confirmed } = useConfirmedAction();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 10 });
  /** the open question: a new rule, or the rule to edit */
  const [asking, setAsking] = useState<{ rule: Rule | null } | null>(null);
  const fetchPage = useCallback(
    () =>
      listRules({ search: search || undefined, page: paging.page, size: paging.size }).then((r) => ({
        rows: r.rules,
        total: r.total,
      })),
    [search, paging],
  );
  // stable: usePagedRows reloads when it changes
  const goTo = useCallback((page: number) => setPaging((p) => ({ ...p, page })), []);
  const { rows, setRows, total, loading, load } = usePagedRows(fetchPage, { ...paging, goTo });

  const toggle = (rule: Rule) => {
    const next = !rule.active;
    return confirmed({
      ask: { title: S.confirmTitle, message: next ? S.confirmEnable(rule.name) : S.confirmDisable(rule.name) },
      run: () => activateRule(rule.id, next),
      success: T.rules.activateSuccess,
      failed: S.statusFailed,
      done: (saved) => setRows(withSavedRow(saved)),
    });
  };

  const remove = (rule: Rule) =>
    confirmed({
      ask: { title: S.confirmTitle, message: S.confirmRemove(rule.name) },
      run: () => removeRule(rule.id),
      success: T.rules.removeSuccess,
      failed: T.rules.removeFailed,
      done: load,
    });

  const choose = (kind: RuleFormKind) => {
    const rule = asking?.rule ?? null;
    setAsking(null);
    if (rule)
      navigate(
        kind === 'manual' ? area.to(RuleRoute.edit, { id: rule.id }) : area.to(EditorRoute.editInfo, { id: rule.id }),
      );
    else navigate(kind === 'manual' ? area.to(RuleRoute.add) : area.to(EditorRoute.info));
  };

  return (
    <Box sx={{ pb: 10 }}>
      <ListHeading title={T.rules.title} subtitle={S.subtitle} />
      <Box sx={{ mb: 2 }}>
        <SearchBox
          placeholder={S.search}
          buttonLabel={S.searchButton}
          onSearch={(s) => {
            setSearch(s);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
        />
      </Box>
      <PagedTable
        label={T.rules.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        busy={busy}
        empty={search ? { title: S.notFoundTitle, hint: S.notFoundHint } : { title: S.emptyTitle, hint: S.emptyHint }}
        pager={{ total, paging, sizes: RULE_PAGE_SIZES, onPaging: setPaging }}
        head={
          <>
            <TableCell>{S.colRule}</TableCell>
            <TableCell>{S.colDescription}</TableCell>
            <TableCell>{S.colStatus}</TableCell>
            <TableCell align="right">{S.colActions}</TableCell>
          </>
        }
      >
        {rows?.map((r) => (
          <TableRow key={r.id} hover data-testid="rule-row">
            <TableCell>
              <Typography sx={{ fontWeight: 600 }}>{r.name}</Typography>
              <Typography variant="caption" color="text.secondary">
                {r.category_text}
                {r.key ? ` · ${r.key}` : ''}
              </Typography>
            </TableCell>
            <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>{r.description}</TableCell>
            <TableCell>
              <Switch
                checked={r.active}
                onChange={() => void toggle(r)}
                slotProps={{ input: { 'aria-label': S.statusOf(r.name) } }}
              />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title={S.edit}>
                <IconButton aria-label={S.editOf(r.name)} onClick={() => setAsking({ rule: r })}>
                  <EditIcon />
                </IconButton>
              </Tooltip>
              <Tooltip title={S.remove}>
                <IconButton aria-label={S.removeOf(r.name)} onClick={() => void remove(r)}>
                  <DeleteIcon color="error" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </PagedTable>
      <Fab
        color="primary"
        variant="extended"
        onClick={() => setAsking({ rule: null })}
        sx={{ position: 'fixed', right: 32, bottom: 32, textTransform: 'none' }}
      >
        <AddIcon sx={{ mr: 1 }} />
        {T.rules.newRule}
      </Fab>
      <ChoiceDialog
        question={asking?.rule ? T.rules.askEdit : T.rules.askAdd}
        open={asking !== null}
        onChoose={choose}
        onClose={() => setAsking(null)}
      />
    </Box>
  );
}
