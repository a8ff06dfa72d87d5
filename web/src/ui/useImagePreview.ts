// A picture chosen from the computer and shown from a local object URL only (the spec shows no upload call): the hidden
// file input's props, choose (opens it), remove after the confirm dialog's image question; a file that is not an image
// is ignored, and the URL is revoked when it is replaced or the picker goes away.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { T } from '@sentra/contracts';
import { useConfirm } from './ConfirmDialog.js';

export function useImagePreview() {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const confirm = useConfirm();
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pick = (file: File | undefined) => {
    if (file?.type.startsWith('image/')) setPreview(URL.createObjectURL(file));
  };
  const remove = async () => {
    if (await confirm({ message: T.application.removeImage })) setPreview(null);
  };
  const inputProps = {
    ref: input,
    type: 'file',
    accept: 'image/*',
    hidden: true,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      pick(e.target.files?.[0]);
      e.target.value = '';
    },
  };
  return { preview, choose: () => input.current?.click(), remove: () => void remove(), inputProps };
}
