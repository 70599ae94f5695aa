import { AlertTriangle, Info } from "lucide-react";
import { Controller, type UseFormReturn } from "react-hook-form";
import type { PolicyFormValues } from "@contract/policy";
import type { PolicyOptionsDto } from "@contract/policy-options";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { MultiCombobox } from "@/components/ui/multi-combobox";
import { cn } from "@/lib/utils";
import {
  entriesOf,
  keyFieldNote,
  keyOptions,
  normaliseEntry,
  toolOptions,
  unconfirmedKeys,
  unknownTools,
  unknownToolsError,
  type FieldNote,
  type KeyField,
} from "../lib/policy-checks";

type ListField = KeyField | "disabledTools";

const LISTS: { name: ListField; label: string; placeholder: string; hint: string }[] = [
  { name: "jiraProjects", label: "Jira projects", placeholder: "Type a project key, such as BK", hint: "Blank: any project." },
  { name: "confluenceSpaces", label: "Confluence spaces", placeholder: "Type a space key, such as ENG", hint: "Blank: any space." },
  {
    name: "bitbucketRepositories",
    label: "Bitbucket repositories",
    placeholder: "Type a repository, such as api-gateway",
    hint: "repo or workspace/repo. Blank: any repository.",
  },
  {
    name: "disabledTools",
    label: "Tools switched off",
    placeholder: "Type a tool name, such as jira_create_issue",
    hint: "Tool names, as tools/list gives them. Blank: none.",
  },
];

function Note({ id, note }: { id: string; note: FieldNote }) {
  const Icon = note.tone === "warning" ? AlertTriangle : Info;
  return (
    <p id={id} className={cn("flex items-start gap-1.5 text-xs", note.tone === "warning" ? "text-warning" : "text-muted-foreground")}>
      <Icon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>{note.text}</span>
    </p>
  );
}

/**
 * The policy's four lists as pickers over the live integrations (issue 25 item 5). A key the
 * integration cannot confirm is a warning under its field (saving goes on: the integration may
 * be down, or the key not yet there); a tool this server does not have is an error that blocks
 * saving. Free entry stays possible: type a key and press Enter.
 */
export function PolicyPickers({
  form,
  idPrefix,
  options,
  loading,
}: {
  form: UseFormReturn<PolicyFormValues>;
  idPrefix: string;
  options: PolicyOptionsDto | null | undefined;
  loading: boolean;
}) {
  const errors = form.formState.errors;
  return (
    <>
      {LISTS.map(({ name, label, placeholder, hint }) => {
        const id = `${idPrefix}-${name}`;
        return (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => {
              const values = field.value;
              const isTools = name === "disabledTools";
              const message = errors[name]?.message ?? (isTools ? unknownToolsError(values, options) : undefined);
              const note = isTools ? null : keyFieldNote(name, values, options);
              const doubtful = new Set(isTools ? unknownTools(values, options) : unconfirmedKeys(name, values, options));
              const describedBy = [`${id}-hint`, note && `${id}-note`, message && `${id}-error`].filter(Boolean).join(" ");
              return (
                <div className="grid gap-2">
                  <Label htmlFor={id}>{label}</Label>
                  <MultiCombobox
                    id={id}
                    label={label}
                    values={values}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    options={isTools ? toolOptions(options) : keyOptions(name, options)}
                    parse={(text) => entriesOf(text).map((entry) => normaliseEntry(name, entry))}
                    placeholder={placeholder}
                    invalid={Boolean(message)}
                    describedBy={describedBy}
                    toneOf={(value) => (doubtful.has(value) ? (isTools ? "error" : "warning") : undefined)}
                    emptyText={loading ? "Loading the list…" : "Nothing in the list matches: press Enter to add what you typed."}
                  />
                  <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                    {hint} Pick from the list, or type and press Enter.
                  </p>
                  {note && <Note id={`${id}-note`} note={note} />}
                  <FieldError id={`${id}-error`} message={message} />
                </div>
              );
            }}
          />
        );
      })}
    </>
  );
}
