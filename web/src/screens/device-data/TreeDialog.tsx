// The "{...}" viewer: an object-like value as an expandable tree (spec 03 section 2.5).
import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { T } from '@sentra/contracts';

function Node({ name, value, depth }: { name: string; value: unknown; depth: number }) {
  const [open, setOpen] = useState(depth < 2);
  const structured = value !== null && typeof value === 'object';
  const entries = structured ? Object.entries(value as Record<string, unknown>) : [];
  return (
    <Box sx={{ pl: depth ? 2 : 0 }} role="treeitem" aria-expanded={structured ? open : undefined}>
      <Box sx={{ display: 'flex', alignItems: 'center', minHeight: 28 }}>
        {structured ? (
          <IconButton size="small" onClick={() => setOpen(!open)} aria-label={name}>
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 30 }} />
        )}
        <Typography component="span" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
          {name}
        </Typography>
        <Typography component="span" sx={{ fontFamily: 'monospace', ml: 1, color: 'text.secondary' }}>
          {structured
            ? Array.isArray(value)
              ? `[${entries.length}]`
              : `{${entries.length}}`
            : `: ${JSON.stringify(value)}`}
        </Typography>
      </Box>
      {structured && open && entries.map(([k, v]) => <Node key={k} name={k} value={v} depth={depth + 1} />)}
    </Box>
  );
}

export function TreeDialog({ title, value, onClose }: { title: string; value: unknown; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers role="tree">
        <Node name={T.deviceData.treeTitle} value={value} depth={0} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.deviceData.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
