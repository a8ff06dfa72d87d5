// The template demo pages of spec 01 section 1 (/pages/signin, register, forget, invoice, test): placeholders with
// no behaviour. /pages/404 is the real 'Page Not Found!!' page.
import type { ReactNode } from 'react';
import {
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { T } from '@sentra/contracts';
import { formatNumber } from '../../ui/format.js';

function DemoFrame({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: 4, width: '100%', maxWidth: 520 }}>
        <Typography variant="h5" component="h1" gutterBottom sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        <Chip size="small" label={T.demoPages.note} sx={{ mb: 2 }} />
        {children}
      </Paper>
    </Box>
  );
}

const noSubmit = (e: React.FormEvent) => e.preventDefault();

export function DemoSignIn() {
  return (
    <DemoFrame title={T.demoPages.signIn}>
      <Stack component="form" spacing={2} onSubmit={noSubmit}>
        <TextField label={T.login.username} />
        <TextField label={T.login.password} type="password" />
        <Button type="submit" variant="contained">
          {T.login.login}
        </Button>
      </Stack>
    </DemoFrame>
  );
}

export function DemoRegister() {
  return (
    <DemoFrame title={T.demoPages.register}>
      <Stack component="form" spacing={2} onSubmit={noSubmit}>
        <TextField label={T.registrationPage.username} />
        <TextField label={T.registrationPage.email} />
        <TextField label={T.registrationPage.pass} type="password" />
        <Button type="submit" variant="contained">
          {T.registration.submit}
        </Button>
      </Stack>
    </DemoFrame>
  );
}

export function DemoForget() {
  return (
    <DemoFrame title={T.demoPages.forget}>
      <Stack component="form" spacing={2} onSubmit={noSubmit}>
        <TextField label={T.registrationPage.email} />
        <Button type="submit" variant="contained">
          {T.demoPages.send}
        </Button>
      </Stack>
    </DemoFrame>
  );
}

export function DemoInvoice() {
  const rows = T.demoPages.invoiceRows;
  const total = rows.reduce((s, r) => s + r.qty * r.price, 0);
  return (
    <DemoFrame title={T.demoPages.invoice}>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {T.demoPages.invoiceNo} INV-2020-0001
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{T.demoPages.item}</TableCell>
            <TableCell align="right">{T.demoPages.qty}</TableCell>
            <TableCell align="right">{T.demoPages.price}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.item}>
              <TableCell>{r.item}</TableCell>
              <TableCell align="right">{r.qty}</TableCell>
              <TableCell align="right">{formatNumber(r.qty * r.price)}</TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell colSpan={2}>
              <strong>{T.demoPages.total}</strong>
            </TableCell>
            <TableCell align="right">
              <strong>{formatNumber(total)}</strong>
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </DemoFrame>
  );
}

export function DemoTest() {
  return <DemoFrame title={T.demoPages.test} />;
}
