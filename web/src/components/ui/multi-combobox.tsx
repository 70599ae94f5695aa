/**
 * A multi-select combobox with chips (WAI-ARIA 1.2 combobox pattern, "list autocomplete"): type to
 * filter the list, Arrow keys move through it (aria-activedescendant: focus stays in the input),
 * Enter or a click adds the option, and Enter on text the list does not have adds that text (free
 * entry). Each chip's × removes it; Backspace in the empty input removes the last one; Escape
 * closes the list before it would close a dialog. The list opens in the page's flow, below the
 * field: nothing to clip inside a scrolling dialog.
 */
import { X } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "@/lib/utils";

export interface ComboOption {
  value: string;
  label: string;
  hint?: string | undefined;
}

interface MultiComboboxProps {
  id: string;
  values: string[];
  onChange: (values: string[]) => void;
  options: ComboOption[];
  /** Text typed or pasted as entries (split on commas and spaces), each normalised. */
  parse: (text: string) => string[];
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string | undefined;
  disabled?: boolean;
  onBlur?: () => void;
  /** A chip's look: "warning" for an entry that could not be confirmed, "error" for one that is refused. */
  toneOf?: (value: string) => "warning" | "error" | undefined;
  /** The field's name ("Jira projects"): the chips are "Jira projects picked", the list "Jira projects to pick from". */
  label: string;
  /** Shown in the list when nothing matches the text ("Press Enter to add it"). */
  emptyText?: ReactNode;
  /** At most this many matches are shown: type to narrow. */
  maxShown?: number;
  /** The input, for a form library that focuses the first invalid field. */
  inputRef?: (element: HTMLInputElement | null) => void;
}

const CHIP_TONES = {
  none: "border-border bg-secondary text-secondary-foreground",
  warning: "border-warning/40 bg-warning/10 text-warning",
  error: "border-destructive/40 bg-destructive/10 text-destructive",
} as const;

export function MultiCombobox({
  id,
  values,
  onChange,
  options,
  parse,
  placeholder,
  invalid,
  describedBy,
  disabled,
  onBlur,
  toneOf,
  label,
  emptyText,
  maxShown = 50,
  inputRef,
}: MultiComboboxProps) {
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState("");

  const picked = useMemo(() => new Set(values.map((v) => v.toLowerCase())), [values]);
  const matches = useMemo(() => {
    const q = text.trim().toLowerCase();
    const free = options.filter((o) => !picked.has(o.value.toLowerCase()));
    const hits = q
      ? free.filter(
          (o) => o.value.toLowerCase().includes(q) || o.label.toLowerCase().includes(q) || (o.hint ?? "").toLowerCase().includes(q),
        )
      : free;
    return hits.slice(0, maxShown);
  }, [options, picked, text, maxShown]);

  const add = (entries: string[]) => {
    const fresh = entries.filter(
      (e, i) => e && !picked.has(e.toLowerCase()) && entries.findIndex((x) => x.toLowerCase() === e.toLowerCase()) === i,
    );
    if (fresh.length > 0) {
      onChange([...values, ...fresh]);
      setAnnouncement(`Added ${fresh.join(", ")}`);
    }
    setText("");
    setActive(-1);
  };
  const remove = (value: string) => {
    onChange(values.filter((v) => v !== value));
    setAnnouncement(`Removed ${value}`);
    input.current?.focus();
  };
  const commitText = () => {
    if (text.trim()) add(parse(text));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        if (!open) setOpen(true);
        if (matches.length === 0) return;
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i < 0 ? (step > 0 ? 0 : matches.length - 1) : (i + step + matches.length) % matches.length));
        return;
      }
      case "Enter": {
        // Never submits the form from here: Enter adds.
        event.preventDefault();
        const option = open && active >= 0 ? matches[active] : undefined;
        if (option) add([option.value]);
        else commitText();
        return;
      }
      case "Escape":
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
          setActive(-1);
        }
        return;
      case "Backspace":
        if (text === "" && values.length > 0) remove(values[values.length - 1]!);
        return;
      default:
    }
  };

  const activeId = open && active >= 0 && active < matches.length ? `${listId}-${active}` : undefined;
  const showList = open && !disabled;
  // The opened list, and the option the arrows reach, are scrolled into view (inside a scrolling dialog too).
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (showList) list.current?.scrollIntoView({ block: "nearest" });
  }, [showList]);
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  return (
    <div className="grid gap-1.5">
      <div
        className={cn(
          "flex min-h-9 w-full min-w-0 flex-wrap items-center gap-1 rounded-md border border-input bg-background px-1.5 py-1 shadow-xs transition-colors",
          "focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/40",
          invalid && "border-destructive focus-within:ring-destructive/30",
          disabled && "cursor-not-allowed opacity-60",
        )}
        onClick={() => input.current?.focus()}
      >
        {values.length > 0 && (
          <ul aria-label={`${label} picked`} className="contents">
            {values.map((value) => {
              const tone = toneOf?.(value);
              return (
                <li
                  key={value}
                  className={cn(
                    "inline-flex max-w-full items-center gap-0.5 rounded border py-0.5 pl-1.5 pr-0.5 font-mono text-xs",
                    CHIP_TONES[tone ?? "none"],
                  )}
                >
                  <span className="truncate">{value}</span>
                  {tone && <span className="sr-only">{tone === "error" ? " (refused)" : " (not confirmed)"}</span>}
                  <button
                    type="button"
                    disabled={disabled}
                    aria-label={`Remove ${value}`}
                    className="rounded-sm p-0.5 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    onClick={(event) => {
                      event.stopPropagation();
                      remove(value);
                    }}
                  >
                    <X className="size-3" aria-hidden="true" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <input
          ref={(element) => {
            input.current = element;
            inputRef?.(element);
          }}
          id={id}
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          disabled={disabled}
          value={text}
          placeholder={values.length === 0 ? placeholder : undefined}
          className="h-7 min-w-[8rem] flex-1 bg-transparent px-1.5 font-mono text-xs outline-none placeholder:font-sans placeholder:text-muted-foreground disabled:cursor-not-allowed"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            // Typed text is kept as entries, not lost when the pointer moves on to Save.
            commitText();
            setOpen(false);
            setActive(-1);
            onBlur?.();
          }}
        />
      </div>
      <ul
        ref={list}
        id={listId}
        role="listbox"
        aria-label={`${label} to pick from`}
        hidden={!showList}
        className="max-h-52 overflow-y-auto rounded-md border border-border bg-popover p-1 text-sm shadow-sm"
      >
        {matches.map((option, index) => (
          <li
            key={option.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            aria-labelledby={`${listId}-${index}-label`}
            aria-describedby={option.hint ? `${listId}-${index}-hint` : undefined}
            className={cn(
              "flex cursor-pointer flex-col rounded-sm px-2 py-1.5",
              index === active ? "bg-accent text-accent-foreground" : "hover:bg-muted",
            )}
            // Keeps focus in the input (no blur that would commit the typed text first).
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => add([option.value])}
          >
            <span id={`${listId}-${index}-label`} className="font-mono text-xs">
              {option.label}
            </span>
            {option.hint && (
              <span id={`${listId}-${index}-hint`} className="text-xs text-muted-foreground">
                {option.hint}
              </span>
            )}
          </li>
        ))}
        {matches.length === 0 && (
          <li role="presentation" className="px-2 py-1.5 text-xs text-muted-foreground">
            {emptyText ?? "No matches."}
          </li>
        )}
      </ul>
      <span className="sr-only" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
