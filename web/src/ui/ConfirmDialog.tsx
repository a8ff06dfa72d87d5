// The confirm dialog used throughout (spec 01 section 2): a question with 'Ya' and 'Batal' unless a screen renames them.
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { T } from '@sentra/contracts';

export interface ConfirmRequest {
  message: string;
  title?: string;
  yes?: string;
  no?: string;
}

type Confirm = (req: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm>(async () => false);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((yes: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((req) => {
    resolver.current?.(false);
    setRequest(req);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (yes: boolean) => {
    resolver.current?.(yes);
    resolver.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog open={request !== null} onClose={() => answer(false)} maxWidth="xs" fullWidth>
        {request?.title && <DialogTitle>{request.title}</DialogTitle>}
        <DialogContent>
          <DialogContentText>{request?.message}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => answer(false)}>{request?.no ?? T.common.cancel}</Button>
          <Button onClick={() => answer(true)} variant="contained" autoFocus>
            {request?.yes ?? T.common.yes}
          </Button>
        </DialogActions>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

export const useConfirm = () => useContext(ConfirmContext);
