import type { PersonaName } from '../core/vocabulary';

/**
 * The analyst's prompts are versioned Markdown files in ./prompts (a front-matter block with
 * `version` and, for personas, `persona`). Reading them is the caller's job (files on disk, bundled
 * beside the Lambda); this module only parses and assembles them.
 */
export const PROMPT_FILES = {
  system: 'system.md',
  'SOC Analyst': 'soc-analyst.md',
  CISO: 'ciso.md',
  'Threat Hunter': 'threat-hunter.md',
} as const satisfies Record<'system' | PersonaName, string>;

export interface PromptFile {
  version: string;
  persona?: string;
  body: string;
}

export function parsePromptFile(text: string, fileName: string): PromptFile {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  if (!match) throw new Error(`Prompt file ${fileName} has no front-matter block`);
  const fields = Object.fromEntries(
    (match[1] ?? '').split('\n').flatMap((line) => {
      const at = line.indexOf(':');
      return at > 0 ? [[line.slice(0, at).trim(), line.slice(at + 1).trim()]] : [];
    }),
  );
  const version = fields.version;
  if (!version) throw new Error(`Prompt file ${fileName} has no version`);
  return { version, ...(fields.persona ? { persona: fields.persona } : {}), body: (match[2] ?? '').trim() };
}

export interface SystemPrompt {
  text: string;
  /** `system@1+soc-analyst@1`: recorded in the report so a narrative can be traced to its prompts. */
  version: string;
}

/** The system prompt for a persona from the parsed files. */
export function systemPrompt(persona: PersonaName, files: (name: string) => string): SystemPrompt {
  const system = parsePromptFile(files(PROMPT_FILES.system), PROMPT_FILES.system);
  const personaFile = PROMPT_FILES[persona];
  const personaPrompt = parsePromptFile(files(personaFile), personaFile);
  if (personaPrompt.persona !== persona) {
    throw new Error(
      `Prompt file ${personaFile} is for ${personaPrompt.persona ?? 'no persona'}, not ${persona}`,
    );
  }
  return {
    text: `${system.body}\n\n# The reader\n\n${personaPrompt.body}`,
    version: `system@${system.version}+${personaFile.replace(/\.md$/, '')}@${personaPrompt.version}`,
  };
}
