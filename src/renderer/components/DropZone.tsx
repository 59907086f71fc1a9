/**
 * A drop target with its file picker: files dropped on it or chosen in the picker go to
 * `onFiles`, and only there (the window's own drop handler, which uploads documents, never sees
 * a drop made here). Its text comes first (children), its status lines after the button.
 */
import { useRef, useState, type ReactNode } from 'react';

export function DropZone({
  testId,
  buttonText,
  pickerLabel,
  accept,
  multiple = false,
  disabled = false,
  onFiles,
  children,
  status,
}: {
  testId: string;
  buttonText: string;
  /** The hidden picker's accessible name. */
  pickerLabel: string;
  /** The picker's `accept` list (a drop is checked by whoever takes the files). */
  accept: string;
  multiple?: boolean;
  /** Disables the picker button; a drop still arrives and the receiver decides. */
  disabled?: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
  status?: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div
      className={`drop-zone${over ? ' drop-zone--over' : ''}`}
      data-testid={testId}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation();
        setOver(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      {children}
      <button
        type="button"
        className="secondary"
        disabled={disabled}
        onClick={() => picker.current?.click()}
      >
        {buttonText}
      </button>
      <input
        ref={picker}
        type="file"
        multiple={multiple}
        hidden
        accept={accept}
        aria-label={pickerLabel}
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      {status}
    </div>
  );
}
