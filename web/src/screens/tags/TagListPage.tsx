// "Penanda" (spec 03 section 2.8): tag categories with ID (prefix), Nama, Tipe and their options ("Pilihan", with the
// add-option dialog), a search on name or prefix, "Penanda Baru", the empty states, paging 10 (5, 10, 25). A role that
// manages devices also renames and deletes categories (row menu) and options (click a chip to rename, its x to delete).
import { useCallback, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Chip, IconButton, ListItemText, Menu, MenuItem, Stack, TableCell, TableRow } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import AddIcon from '@mui/icons-material/Add';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import { T, TAG_PAGE_SIZES, TagType, type TagCategory } from '@sentra/contracts';

type TagDefinition = TagCategory['definitions'][number];
import { useAppArea } from '../../ui/useAppArea.js';
import { notices } from '../../ui/snackbar/notices.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows, type Paging } from '../../ui/PagedTable.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { useCanReach } from '../../shell/grants.js';
import { canManageDevices } from '../devices/deviceRoutes.js';
import {
  listTagCategories,
  removeTagCategory,
  removeTagOption,
  renameTagCategory,
  renameTagOption,
} from './tagCalls.js';
import { TagRenameDialog, type RenameTarget } from './TagRenameDialog.js';
import { TagOptionDialog } from './TagOptionDialog.js';

export function TagListPage() {
  const area = useAppArea();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 10 });
  const [optionFor, setOptionFor] = useState<TagCategory | null>(null);
  const fetchPage = useCallback(
    () =>
      listTagCategories({ search: search || undefined, page: paging.page, size: paging.size }).then((r) => ({
        rows: r.categories,
        total: r.total,
      })),
    [search, paging],
  );
  const { rows, total, loading, load } = usePagedRows(fetchPage);
  const canWrite = canManageDevices(useCanReach());
  const { busy, act: confirmed } = useConfirmedAction();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; category: TagCategory } | null>(null);
  const [rename, setRename] = useState<RenameTarget | null>(null);

  const renameCategory = (c: TagCategory) =>
    setRename({
      title: T.tags.editTitle,
      keyText: c.prefix,
      name: c.name,
      save: async (name) => void (await renameTagCategory(c.id, name), notices.success(T.tags.editSuccess)),
    });
  const renameOption = (c: TagCategory, d: TagDefinition) =>
    setRename({
      title: T.tags.optionEditTitle,
      keyText: `${c.prefix}:${d.name_lc}`,
      name: d.name,
      save: async (name) =>
        void (await renameTagOption(c.prefix, d.name_lc, name), notices.success(T.tags.optionEditSuccess)),
    });

  /** asks, then deletes; the list reloads either way (something may have changed elsewhere) */
  const removeWith = (
    title: string,
    message: string,
    run: () => Promise<number>,
    success: (n: number) => string,
    failed: string,
  ) => confirmed({ ask: { title, message }, run, success, failed, settled: load });
  const removeCategory = (c: TagCategory) =>
    void removeWith(
      T.tags.removeTitle,
      T.tags.removeConfirm(c.name),
      () => removeTagCategory(c.id),
      T.tags.removeSuccess,
      T.tags.removeFailed,
    );
  const removeOption = (c: TagCategory, d: TagDefinition) =>
    void removeWith(
      T.tags.optionRemoveTitle,
      T.tags.optionRemoveConfirm(d.name),
      () => removeTagOption(c.prefix, d.name_lc),
      T.tags.optionRemoveSuccess,
      T.tags.optionRemoveFailed,
    );

  const openOptions = (c: TagCategory) => {
    if (c.category !== TagType.SELECTION) notices.warning(T.tags.optionNotAllowed);
    else setOptionFor(c);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <ListHeading
        title={T.tags.title}
        subtitle={T.tags.subtitle}
        action={
          <Button component={RouterLink} to={area.to('_tag_add_')} variant="contained" startIcon={<AddIcon />}>
            {T.tags.newTag}
          </Button>
        }
      />
      <Box sx={{ mb: 2 }}>
        <SearchBox
          placeholder={T.tags.search}
          buttonLabel={T.tags.searchButton}
          onSearch={(s) => {
            setSearch(s);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
        />
      </Box>
      <PagedTable
        label={T.tags.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        busy={busy}
        empty={
          search
            ? { title: T.tags.notFound, hint: T.tags.notFoundHint }
            : { title: T.tags.empty, hint: T.tags.emptyHint }
        }
        pager={{ total, paging, sizes: TAG_PAGE_SIZES, onPaging: setPaging }}
        head={
          <>
            <TableCell>{T.tags.colId}</TableCell>
            <TableCell>{T.tags.colName}</TableCell>
            <TableCell>{T.tags.colType}</TableCell>
            <TableCell>{T.tags.colOptions}</TableCell>
            {canWrite && <TableCell align="right">{T.tags.colActions}</TableCell>}
          </>
        }
      >
        {rows?.map((c) => (
          <TableRow key={c.id} hover data-testid="tag-row">
            <TableCell sx={{ fontFamily: 'monospace' }}>{c.prefix}</TableCell>
            <TableCell>{c.name}</TableCell>
            <TableCell>{c.category_text}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
                {c.definitions.map((d) =>
                  canWrite ? (
                    <Chip
                      key={d.name_lc}
                      size="small"
                      label={d.name}
                      data-testid="tag-option"
                      aria-label={T.tags.optionEditFor(d.name)}
                      onClick={() => renameOption(c, d)}
                      onDelete={() => removeOption(c, d)}
                    />
                  ) : (
                    <Chip key={d.name_lc} size="small" label={d.name} data-testid="tag-option" />
                  ),
                )}
                <Button
                  size="small"
                  startIcon={<PlaylistAddIcon />}
                  onClick={() => openOptions(c)}
                  aria-label={T.tags.addOptionFor(c.name)}
                >
                  {T.tags.options}
                </Button>
              </Stack>
            </TableCell>
            {canWrite && (
              <TableCell align="right">
                <IconButton
                  size="small"
                  aria-label={T.tags.rowMenu(c.name)}
                  aria-haspopup="menu"
                  onClick={(e) => setMenu({ anchor: e.currentTarget, category: c })}
                >
                  <MoreVertIcon fontSize="small" />
                </IconButton>
              </TableCell>
            )}
          </TableRow>
        ))}
      </PagedTable>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem onClick={() => (menu && renameCategory(menu.category), setMenu(null))}>
          <ListItemText>{T.tags.edit}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => (menu && removeCategory(menu.category), setMenu(null))}>
          <ListItemText>{T.tags.remove}</ListItemText>
        </MenuItem>
      </Menu>
      <TagRenameDialog target={rename} onClose={() => setRename(null)} onSaved={() => (setRename(null), void load())} />
      <TagOptionDialog
        category={optionFor}
        onClose={() => setOptionFor(null)}
        onAdded={() => {
          setOptionFor(null);
          void load();
        }}
      />
    </Box>
  );
}
