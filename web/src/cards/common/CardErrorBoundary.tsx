// An error inside one card (a bad configuration, a view that throws on odd data) shows on that card only; the rest of
// the dashboard lives on. "Coba lagi" renders the card again (new data may have fixed it).
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Box, Button, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { T } from '@sentra/contracts';

export function CardProblem({ message, detail, onRetry }: { message: string; detail?: string; onRetry?(): void }) {
  return (
    <Box
      role="alert"
      data-testid="card-error"
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 0.5,
        p: 1,
        textAlign: 'center',
        color: 'error.main',
        minHeight: 0,
        overflow: 'hidden',
      }}
    >
      <ErrorOutlineIcon fontSize="small" />
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {message}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {detail}
        </Typography>
      )}
      {onRetry && (
        <Button size="small" onClick={onRetry}>
          {T.cardViews.retry}
        </Button>
      )}
    </Box>
  );
}

interface State {
  error?: Error;
}

export class CardErrorBoundary extends Component<{ cardKey: string; children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`card ${this.props.cardKey} failed`, error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <CardProblem
          message={T.cardViews.cardError}
          detail={T.cardViews.cardErrorDetail(this.state.error.message)}
          onRetry={() => this.setState({ error: undefined })}
        />
      );
    }
    return this.props.children;
  }
}
