// The billing-expired page (/expire, reached on a 402): a tenant is asked to complete payment and contact support,
// an application user to contact their tenant.
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Box, Button, Paper, Typography } from '@mui/material';
import PaymentIcon from '@mui/icons-material/Payment';
import { T } from '@sentra/contracts';

export function BillingExpiredPage() {
  const [params] = useSearchParams();
  const isTenant = params.get('isTenant') === 'true';
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, textAlign: 'center' }}>
        <PaymentIcon color="warning" sx={{ fontSize: 64 }} />
        <Typography variant="h5" component="h1" gutterBottom sx={{ fontWeight: 700 }}>
          {T.billing.title}
        </Typography>
        <Typography color="text.secondary" data-testid="billing-message">
          {isTenant ? T.billing.tenant : T.billing.member}
        </Typography>
        <Button component={RouterLink} to="/admin/login" variant="contained" sx={{ mt: 3 }}>
          {T.billing.backToLogin}
        </Button>
      </Paper>
    </Box>
  );
}
